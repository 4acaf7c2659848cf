/**
 * Test harness: Debian's nginx with its own prefix in a temp directory, on free loopback ports, with a
 * test CA (public hosts and the tenant subdomains' wildcard), in front of the given upstreams (the same
 * config npm run proxy writes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  createTestCa,
  layoutFromConfig,
  loadProxyConfig,
  type NginxLayout,
  type RunningNginx,
  startNginx,
  type TestCa,
  writeAtomic,
  writeProxyDir,
  writeTenantSites,
} from '../index.js';
import { freePort } from './net.js';

export interface ProxyHarness {
  layout: NginxLayout;
  ca: TestCa;
  nginx: RunningNginx;
  paths: { bin: string; prefix: string };
  close(): Promise<void>;
}

export async function startProxy(
  upstreams: { erp: string; landing: string; pwa: string; docs: string },
  env: Record<string, string> = {},
  /** Tenant custom domains served from the start (test-CA certificates, as if the worker had installed them). */
  tenantDomains: string[] = [],
): Promise<ProxyHarness> {
  const prefix = mkdtempSync(join(tmpdir(), 'proxy-'));
  const config = loadProxyConfig({
    PROXY_DIR: prefix,
    PROXY_HTTP_PORT: String(await freePort()),
    PROXY_HTTPS_PORT: String(await freePort()),
    ERP_UPSTREAM: upstreams.erp,
    LANDING_UPSTREAM: upstreams.landing,
    PWA_UPSTREAM: upstreams.pwa,
    DOCS_UPSTREAM: upstreams.docs,
    ...env,
  });
  const layout = layoutFromConfig(config, prefix);
  writeProxyDir(layout);
  const ca = await createTestCa('proxy test CA');
  for (const s of layout.sites) {
    const pair = await ca.issue([s.hostname]);
    writeAtomic(s.certFile, pair.certPem);
    writeAtomic(s.keyFile, pair.keyPem, 0o600);
  }
  const wildcard = await ca.issue([`*.${layout.tenantSubdomains.tenantsHost}`]);
  writeAtomic(layout.tenantSubdomains.certFile, wildcard.certPem);
  writeAtomic(layout.tenantSubdomains.keyFile, wildcard.keyPem, 0o600);
  if (tenantDomains.length > 0)
    writeTenantSites(
      layout,
      await Promise.all(tenantDomains.map(async (domain) => ({ domain, ...(await ca.issue([domain])) }))),
    );
  const paths = { bin: config.NGINX_BIN, prefix };
  const nginx = await startNginx(paths, { host: '127.0.0.1', port: layout.httpPort });
  return {
    layout,
    ca,
    nginx,
    paths,
    async close() {
      await nginx.stop();
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
