/**
 * npm run proxy -- <command>
 *   start [--domain <name>]...  write the proxy directory and run nginx in the foreground (Ctrl-C stops)
 *   config [--domain <name>]... write the proxy directory and check it with nginx -t, without starting
 *   reload                      gracefully reload a running proxy (after editing its files)
 * Without PROXY_CERT_DIR a fresh local test CA signs the public hosts (and each --domain, a stand-in
 * for a tenant domain whose ACME certificate the worker would install); its root is printed for curl.
 */
import { join } from 'node:path';

import { CERTIFIABLE_DOMAIN } from '@platform/certificates';
import { ConfigError } from '@platform/kernel';

import { nginxReload, nginxTest, startNginx } from './nginx-process.js';
import { loadProxyConfig } from './proxy.config.js';
import {
  layoutFromConfig,
  loadOrCreateTestCa,
  readInstalledTenantCerts,
  writeAtomic,
  writeProxyDir,
  writeTenantSites,
} from './proxy-dir.js';

async function prepare(argv: string[]) {
  const config = loadProxyConfig();
  const layout = layoutFromConfig(config);
  const domains = argv.flatMap((a, i) => (argv[i - 1] === '--domain' ? [a.toLowerCase()] : []));
  const bad = domains.find((d) => !CERTIFIABLE_DOMAIN.test(d));
  if (bad) throw new Error(`--domain ${bad}: must be a lowercase DNS host name such as shop.example.com`);
  writeProxyDir(layout);
  let rootFile: string | undefined;
  if (!config.PROXY_CERT_DIR || domains.length > 0) {
    const made = await loadOrCreateTestCa(layout.prefix);
    rootFile = made.rootFile;
    if (!config.PROXY_CERT_DIR) {
      for (const s of layout.sites) {
        const pair = await made.ca.issue([s.hostname]);
        writeAtomic(s.certFile, pair.certPem);
        writeAtomic(s.keyFile, pair.keyPem, 0o600);
      }
    }
    if (!config.PROXY_CERT_DIR && !config.TENANTS_WILDCARD_CERT) {
      // The stand-in for the operator's wildcard certificate (DNS-01 in production, docs/proxy.md).
      const wildcard = layout.tenantSubdomains;
      const pair = await made.ca.issue([`*.${wildcard.tenantsHost}`]);
      writeAtomic(wildcard.certFile, pair.certPem);
      writeAtomic(wildcard.keyFile, pair.keyPem, 0o600);
    }
    if (domains.length > 0) {
      const certs = await Promise.all(domains.map(async (domain) => ({ domain, ...(await made.ca.issue([domain])) })));
      // Certificates the worker installed stay; a --domain replaces one of the same name.
      const kept = readInstalledTenantCerts(layout).filter((c) => !domains.includes(c.domain));
      writeTenantSites(layout, [...kept, ...certs]);
    }
  }
  return { config, layout, domains, rootFile, paths: { bin: config.NGINX_BIN, prefix: layout.prefix } };
}

function printUsage(p: Awaited<ReturnType<typeof prepare>>): void {
  const { layout, rootFile } = p;
  const https = layout.httpsPort;
  const lines = [
    ...layout.sites.map((s) => `${s.hostname} → ${s.upstream}`),
    ...[...(layout.tenantSubdomains.served ? [`*.${layout.tenantSubdomains.tenantsHost}`] : []), ...p.domains].map(
      (d) => `${d} → ${layout.tenantFrontendUpstream} (app paths), ${layout.tenantUpstream} (website)`,
    ),
  ];
  console.log(
    `proxy: nginx on ${layout.listenAddress}:${layout.httpPort} (HTTP) and :${https} (HTTPS), directory ${layout.prefix}`,
  );
  for (const l of lines) console.log(`  ${l}`);
  if (!layout.tenantSubdomains.served)
    console.warn(
      `proxy: *.${layout.tenantSubdomains.tenantsHost} is not served: no wildcard certificate at ${layout.tenantSubdomains.certFile} (docs/proxy.md)`,
    );
  const host = layout.sites[1]!.hostname;
  console.log(
    `try: curl --cacert ${rootFile ?? '<your CA>'} --resolve ${host}:${https}:${layout.listenAddress} https://${host}:${https}/health`,
  );
  console.log(`     curl http://${layout.listenAddress}:${layout.httpPort}/nginx-health`);
}

async function main(argv: string[]): Promise<number> {
  const command = argv[0];
  if (command === 'reload') {
    const c = loadProxyConfig();
    await nginxReload({ bin: c.NGINX_BIN, prefix: layoutFromConfig(c).prefix });
    console.log('proxy: reloaded');
    return 0;
  }
  if (command !== 'start' && command !== 'config') {
    console.error('usage: npm run proxy -- start|config [--domain <name>]... | reload');
    return 2;
  }
  const p = await prepare(argv.slice(1));
  if (command === 'config') {
    await nginxTest(p.paths);
    console.log(`proxy: configuration written to ${join(p.layout.prefix, 'nginx.conf')} and accepted by nginx -t`);
    return 0;
  }
  const nginx = await startNginx(
    p.paths,
    { host: p.layout.listenAddress, port: p.layout.httpPort },
    { inheritOutput: true },
  );
  printUsage(p);
  await new Promise<void>((resolve) => {
    for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => resolve());
    nginx.child.once('exit', () => resolve());
  });
  await nginx.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof ConfigError ? e.message : `proxy: ${(e as Error).message}`);
    process.exit(1);
  },
);
