/**
 * The proxy's directory: nginx.conf, the repository's snippets, the public hosts' certificates, the
 * tenant domains' certificates and tenant-sites.conf, and layout.json, which tells the worker's
 * certificate installer how this proxy listens (so both render the same servers).
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CERTIFIABLE_DOMAIN } from '@platform/certificates';

import {
  type NginxLayout,
  type PublicSite,
  renderNginxConf,
  renderTenantSites,
  type SiteKey,
  type TenantSite,
} from './nginx-config.js';
import type { ProxyConfig } from './proxy.config.js';
import { createTestCa, type TestCa } from './test-ca.js';

const SNIPPETS = fileURLToPath(new URL('../../../deploy/nginx/snippets/', import.meta.url));

/** Writes a file so that readers see the old or the new content, never half of it. */
export function writeAtomic(file: string, content: string, mode = 0o644): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, file);
}

export function layoutFromConfig(c: ProxyConfig, prefix = resolve(c.PROXY_DIR)): NginxLayout {
  const certDir = c.PROXY_CERT_DIR ? resolve(c.PROXY_CERT_DIR) : join(prefix, 'certs');
  const site = (key: SiteKey, hostname: string, upstream: string, maxBodySize: string): PublicSite => ({
    key,
    hostname,
    upstream,
    maxBodySize,
    certFile: join(certDir, `${hostname}.crt`),
    keyFile: join(certDir, `${hostname}.key`),
  });
  return {
    prefix,
    listenAddress: c.PROXY_LISTEN,
    httpPort: c.PROXY_HTTP_PORT,
    httpsPort: c.PROXY_HTTPS_PORT,
    sites: [
      site('erp', c.ERP_DOMAIN, c.ERP_UPSTREAM, c.ERP_MAX_BODY),
      site('landing', c.LANDING_DOMAIN, c.LANDING_UPSTREAM, c.LANDING_MAX_BODY),
      site('pwa', c.PWA_DOMAIN, c.PWA_UPSTREAM, c.PWA_MAX_BODY),
      site('docs', c.DOCS_DOMAIN, c.DOCS_UPSTREAM, c.DOCS_MAX_BODY),
    ],
    tenantUpstream: c.LANDING_UPSTREAM,
    tenantFrontendUpstream: c.PWA_UPSTREAM,
    paymentWebhook: { upstream: c.CONTROL_UPSTREAM, maxBodySize: c.PAYMENT_WEBHOOK_MAX_BODY },
    tenantBodyLimits: {
      landing: c.LANDING_MAX_BODY,
      frontend: c.FRONTEND_MAX_BODY,
      frontendControl: c.FRONTEND_CONTROL_MAX_BODY,
    },
    tenantSubdomains: wildcardOf(c, certDir),
    brotliModule: existsSync(c.NGINX_BROTLI_MODULE) ? c.NGINX_BROTLI_MODULE : undefined,
    // As root, nginx's workers would drop to "nobody"; they only relay, the master reads the keys.
    workerUser: process.getuid?.() === 0 ? 'nobody nogroup' : undefined,
  };
}

/**
 * The `*.<TENANTS_HOST>` certificate: the operator's files when named; else `wildcard.<host>.crt`/`.key`
 * in the certificate directory. Without PROXY_CERT_DIR `npm run proxy` makes it with the test CA; with
 * it, an operator who has no wildcard yet (Let's Encrypt issues one only over DNS-01) still gets a proxy
 * for everything else, rather than an nginx that refuses to start.
 */
function wildcardOf(c: ProxyConfig, certDir: string): NginxLayout['tenantSubdomains'] {
  const certFile = c.TENANTS_WILDCARD_CERT
    ? resolve(c.TENANTS_WILDCARD_CERT)
    : join(certDir, `wildcard.${c.TENANTS_HOST}.crt`);
  const keyFile = c.TENANTS_WILDCARD_KEY
    ? resolve(c.TENANTS_WILDCARD_KEY)
    : join(certDir, `wildcard.${c.TENANTS_HOST}.key`);
  const served = !c.PROXY_CERT_DIR || !!c.TENANTS_WILDCARD_CERT || existsSync(certFile);
  return { tenantsHost: c.TENANTS_HOST, certFile, keyFile, served };
}

/** The test CA of this proxy directory (created once), whose root clients trust in local runs. */
export async function loadOrCreateTestCa(prefix: string): Promise<{ ca: TestCa; rootFile: string }> {
  const dir = join(prefix, 'test-ca');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const rootFile = join(dir, 'root.crt');
  // The CA key is kept only in memory of the process that made it: a new run makes a new CA (and
  // re-signs the host certificates), so an old test root never stays trusted by accident.
  const ca = await createTestCa('Platform local test CA');
  writeAtomic(rootFile, ca.certPem);
  return { ca, rootFile };
}

/** Creates the directory layout, copies the snippets and writes nginx.conf and layout.json. */
export function writeProxyDir(l: NginxLayout): void {
  for (const d of ['logs', 'tmp', 'snippets', 'certs', 'tenant-certs'])
    mkdirSync(join(l.prefix, d), { recursive: true });
  chmodSync(join(l.prefix, 'tenant-certs'), 0o700);
  // Workers (as nobody when the master is root) must reach their temp directories.
  chmodSync(l.prefix, 0o755);
  for (const f of readdirSync(SNIPPETS)) copyFileSync(join(SNIPPETS, f), join(l.prefix, 'snippets', f));
  writeAtomic(join(l.prefix, 'nginx.conf'), renderNginxConf(l));
  writeAtomic(join(l.prefix, 'layout.json'), `${JSON.stringify(l, null, 2)}\n`);
  if (!existsSync(join(l.prefix, 'tenant-sites.conf')))
    writeAtomic(join(l.prefix, 'tenant-sites.conf'), renderTenantSites(l, []));
}

export function readLayout(prefix: string): NginxLayout {
  return JSON.parse(readFileSync(join(prefix, 'layout.json'), 'utf8')) as NginxLayout;
}

/** Writes tenant certificates (keys 0600) and tenant-sites.conf; returns the previous file for rollback. */
export function writeTenantSites(l: NginxLayout, certs: { domain: string; certPem: string; keyPem: string }[]): string {
  const dir = join(l.prefix, 'tenant-certs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The names go into nginx's configuration and file names: only plain host names, and never one of
  // the public hosts (a tenant cannot take over erp.<domain>).
  const publicNames = new Set(l.sites.map((s) => s.hostname));
  const usable = certs.filter((c) => CERTIFIABLE_DOMAIN.test(c.domain) && !publicNames.has(c.domain));
  const sites: TenantSite[] = usable.map((c) => {
    const certFile = join(dir, `${c.domain}.crt`);
    const keyFile = join(dir, `${c.domain}.key`);
    writeAtomic(certFile, c.certPem);
    writeAtomic(keyFile, c.keyPem, 0o600);
    return { domain: c.domain, certFile, keyFile };
  });
  const file = join(l.prefix, 'tenant-sites.conf');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : renderTenantSites(l, []);
  writeAtomic(file, renderTenantSites(l, sites));
  return previous;
}

/** The tenant certificates already in the proxy directory (written by the worker), to keep them. */
export function readInstalledTenantCerts(l: NginxLayout): { domain: string; certPem: string; keyPem: string }[] {
  const dir = join(l.prefix, 'tenant-certs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.crt') && existsSync(join(dir, `${f.slice(0, -4)}.key`)))
    .map((f) => ({
      domain: f.slice(0, -4),
      certPem: readFileSync(join(dir, f), 'utf8'),
      keyPem: readFileSync(join(dir, `${f.slice(0, -4)}.key`), 'utf8'),
    }));
}
