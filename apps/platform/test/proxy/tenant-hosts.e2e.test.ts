/**
 * Tenant hosts behind Debian's nginx: an active custom domain and a `<slug>.<TENANTS_HOST>` subdomain
 * (wildcard certificate) send the frontend's customer-facing paths to the frontend and everything
 * else to the landing host, with the tenant's Host kept so each service resolves the tenant itself.
 * Small stand-ins take the place of both services and echo what the proxy forwarded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { requireBinary } from '@platform/proxy/test-support/binaries.js';
import { type Answer, call } from '@platform/proxy/test-support/net.js';
import { type ProxyHarness, startProxy } from '@platform/proxy/test-support/proxy-harness.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildBundles } from '../../../frontend/src/assets/assets.js';

const nginxBin = requireBinary('nginx');
const TENANTS_HOST = 'tenants.test';
const CUSTOM_DOMAIN = 'shop.tenant-one.test';
const SUBDOMAIN = `acme-blinds.${TENANTS_HOST}`;

interface Echo {
  service: string;
  host: string;
  path: string;
  proto: string;
  xff: string;
  bytes: number;
}

/** A service stand-in: reads the whole body and answers with what it was sent. */
function standIn(service: string): Promise<Server> {
  const s = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const h = req.headers;
      res.end(
        JSON.stringify({
          service,
          host: h.host,
          path: req.url,
          proto: h['x-forwarded-proto'],
          xff: h['x-forwarded-for'],
          bytes,
        }),
      );
    });
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}
const addr = (s: Server) => `127.0.0.1:${(s.address() as AddressInfo).port}`;

describe.skipIf(!nginxBin)('tenant hosts behind the proxy (Debian nginx)', () => {
  let landing: Server;
  let frontend: Server;
  let docs: Server;
  let p: ProxyHarness;
  const https = (host: string, path: string, o: Partial<Parameters<typeof call>[0]> = {}) =>
    call({ host, port: p.layout.httpsPort, path, ca: p.ca.certPem, ...o });
  const echo = (a: Answer): Echo => {
    expect(a.status, a.body).toBe(200);
    return JSON.parse(a.body) as Echo;
  };

  beforeAll(async () => {
    [landing, frontend, docs] = await Promise.all([standIn('landing'), standIn('frontend'), standIn('docs')]);
    p = await startProxy(
      { erp: addr(docs), landing: addr(landing), pwa: addr(frontend), docs: addr(docs) },
      { TENANTS_HOST },
      [CUSTOM_DOMAIN],
    );
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    for (const s of [landing, frontend, docs]) s?.close();
  });

  describe.each([
    ['an active custom domain', CUSTOM_DOMAIN],
    ['a tenant subdomain (wildcard certificate)', SUBDOMAIN],
  ])('on %s', (_name, host) => {
    it.each(['/portal/quote/x', '/field/jobs', '/office/leads', '/account/reset-password', '/contact', '/api/health'])(
      'sends %s to the frontend with the tenant host kept',
      async (path) => {
        expect(echo(await https(host, path))).toMatchObject({ service: 'frontend', host, path, proto: 'https' });
      },
    );

    it.each(['/', '/about', '/health', '/assets/site.0123456789.js', '/contact-us', '/fieldwork'])(
      'sends %s to the landing host with the tenant host kept',
      async (path) => {
        expect(echo(await https(host, path))).toMatchObject({ service: 'landing', host, path, proto: 'https' });
      },
    );

    it('sends the landing form API to the landing host and refuses a body over its limit (413)', async () => {
      const post = (bytes: number) =>
        https(host, '/api/estimate', {
          method: 'POST',
          body: 'x'.repeat(bytes),
          headers: { 'content-type': 'application/json' },
        });
      expect(echo(await post(1_000))).toMatchObject({ service: 'landing', host, bytes: 1_000 });
      expect((await post(20_000)).status).toBe(413);
    });

    it("passes a photo-sized body through /api/control/ to the frontend, within the frontend's 15 MiB", async () => {
      const photo = Buffer.alloc(2 * 1024 * 1024, 7);
      const r = await https(host, '/api/control/jobs/j1/photos', {
        method: 'POST',
        body: photo,
        headers: { 'content-type': 'image/jpeg' },
      });
      expect(echo(r)).toMatchObject({ service: 'frontend', host, bytes: photo.length });
      const tooBig = await https(host, '/api/control/jobs/j1/photos', {
        method: 'POST',
        body: Buffer.alloc(16 * 1024 * 1024, 7),
        headers: { 'content-type': 'image/jpeg' },
      });
      expect(tooBig.status).toBe(413);
    });

    it('replaces a forged X-Forwarded-For with the client address on the frontend paths', async () => {
      const r = await https(host, '/portal/quote/x', {
        headers: { 'x-forwarded-for': '203.0.113.9' },
        localAddress: '127.0.0.2',
      });
      expect(echo(r).xff).toBe('127.0.0.2');
    });
  });

  it("sends each of the frontend's real bundle paths to the frontend (both services serve /assets/)", async () => {
    const { script } = await buildBundles();
    for (const path of Object.values(script))
      expect(echo(await https(SUBDOMAIN, path))).toMatchObject({ service: 'frontend', path });
  }, 60_000);

  it('redirects a tenant subdomain from HTTP to HTTPS', async () => {
    const r = await call({ host: SUBDOMAIN, port: p.layout.httpPort, path: '/portal/quote/x' });
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe(`https://${SUBDOMAIN}:${p.layout.httpsPort}/portal/quote/x`);
  });

  it('still refuses an unknown host and the bare tenants host (no certificate, no handshake)', async () => {
    for (const host of ['unknown.example.org', TENANTS_HOST])
      await expect(https(host, '/portal/quote/x')).rejects.toThrow(
        /unrecognized name|alert|ECONNRESET|socket hang up/i,
      );
  });
});
