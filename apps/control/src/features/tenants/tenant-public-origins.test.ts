/** Which origin links to tenant hosts carry: configured, the running proxy's, the frontend's, else https. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runningProxyHttpsPort, TenantPublicOrigins } from './tenant-public-origins.js';

const dir = mkdtempSync(join(tmpdir(), 'public-origins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tenant public origins', () => {
  it('uses TENANT_PUBLIC_ORIGIN when it is set, whatever else is known', () => {
    const o = new TenantPublicOrigins(
      { TENANT_PUBLIC_ORIGIN: 'https://{host}:8443', FRONTEND_PUBLIC_PORT: 8000, PROXY_DIR: dir },
      () => 443,
    );
    expect(o.origin('acme.tenants.localhost')).toBe('https://acme.tenants.localhost:8443');
  });

  it("uses the running proxy's https origin, with its port when it is not 443", () => {
    expect(new TenantPublicOrigins({ FRONTEND_PUBLIC_PORT: 8000, PROXY_DIR: dir }, () => 443).origin('a.t')).toBe(
      'https://a.t',
    );
    expect(new TenantPublicOrigins({ PROXY_DIR: dir }, () => 8443).origin('a.t')).toBe('https://a.t:8443');
  });

  it("uses the frontend's port when no proxy runs, the one it really listens on when told", () => {
    const o = new TenantPublicOrigins({ PROXY_DIR: dir }, () => undefined);
    expect(o.origin('a.t')).toBe('https://a.t');
    o.frontendListensOn('http://0.0.0.0:41234');
    expect(o.origin('a.t')).toBe('http://a.t:41234');
    const fixed = new TenantPublicOrigins({ FRONTEND_PUBLIC_PORT: 8000, PROXY_DIR: dir }, () => undefined);
    fixed.frontendListensOn('http://0.0.0.0:41234');
    expect(fixed.origin('a.t')).toBe('http://a.t:8000');
  });

  it("opens a tenant's public site on the landing's port without a proxy, on the shared origin with one", () => {
    const proxy: { port?: number } = {};
    const o = new TenantPublicOrigins({ PROXY_DIR: dir }, () => proxy.port);
    o.frontendListensOn('http://0.0.0.0:8000');
    expect(o.siteOrigin('a.t')).toBe('http://a.t:8000');
    o.landingListensOn('http://127.0.0.1:8001');
    expect(o.siteOrigin('a.t')).toBe('http://a.t:8001');
    expect(o.origin('a.t')).toBe('http://a.t:8000');
    proxy.port = 443;
    expect(o.siteOrigin('a.t')).toBe('https://a.t');
    const configured = new TenantPublicOrigins(
      { TENANT_PUBLIC_ORIGIN: 'https://{host}', PROXY_DIR: dir },
      () => undefined,
    );
    configured.landingListensOn('http://127.0.0.1:8001');
    expect(configured.siteOrigin('a.t')).toBe('https://a.t');
  });

  it('sees a proxy only while its nginx.pid names a live process', () => {
    expect(runningProxyHttpsPort(dir)).toBeUndefined();
    writeFileSync(join(dir, 'layout.json'), JSON.stringify({ httpsPort: 8443 }));
    writeFileSync(join(dir, 'nginx.pid'), `${process.pid}\n`);
    expect(runningProxyHttpsPort(dir)).toBe(8443);
    writeFileSync(join(dir, 'nginx.pid'), '2147483646\n'); // no such process: a stale file after a crash
    expect(runningProxyHttpsPort(dir)).toBeUndefined();
  });
});
