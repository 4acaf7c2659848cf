/**
 * The frontend seen from a browser's side: health, tenant by host with its branding on the page,
 * the not-found page for a host that is nobody's, and /api/control forwarded to the control plane
 * (a small server honouring the contract's shapes) with the host's tenant, never the browser's.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { composeFrontend } from './deps.js';
import { loadFrontendConfig } from './frontend.config.js';
import { buildFrontendApp } from './frontend.http-app.js';

let t: TestDb;
let app: FastifyInstance;
let upstream: Server;
let upstreamUrl: string;
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let acme: string;
let bolt: string;

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  const ins = async (slug: string, name: string, isDefault = false) =>
    (
      await t.db.query<{ id: string }>(
        'INSERT INTO tenants (slug, name, is_default) VALUES ($1, $2, $3) RETURNING id',
        [slug, name, isDefault],
      )
    ).rows[0]!.id;
  acme = await ins('acme', 'Acme Blinds', true);
  bolt = await ins('bolt', 'Bolt Shutters');
  await t.db.query(
    `INSERT INTO tenant_domains (tenant_id, domain_type, domain, ssl_status) VALUES ($1, 'custom', 'www.boltshutters.test', 'active')`,
    [bolt],
  );
  await t.db.query(
    `INSERT INTO tenant_settings (tenant_id, company_name, primary_color, phone, email, logo_url) VALUES ($1, 'Bolt Shutters & Co', '#8a1538', '303-555-0100', 'hi@bolt.test', 'javascript:alert(1)')`,
    [bolt],
  );
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const uploadUrls: Record<string, string> = {
        '/jobs/j1/uploads': `${upstreamUrl}/storage/put/k1?sig=abc`,
        // The control plane names itself `localhost` (CONTROL_PUBLIC_URL's default), CONTROL_URL 127.0.0.1.
        '/jobs/j2/uploads': `${upstreamUrl.replace('127.0.0.1', 'localhost')}/objects/k2?sig=def`,
        '/jobs/j3/uploads': 'https://bucket.s3.example.com/k3?X-Amz-Signature=ghi',
      };
      if (req.url === '/jobs/j1/downloads' || req.url === '/jobs/j3/downloads') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const local = req.url === '/jobs/j1/downloads';
        const url = local ? `${upstreamUrl}/objects/k1?method=get&sig=x` : 'https://bucket.s3.example.com/k3?sig=y';
        return res.end(JSON.stringify({ download_url: url, expires_at: '2030-01-01T00:00:00Z', kind: 'photo_after' }));
      }
      if (uploadUrls[req.url!]) {
        res.writeHead(201, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ key: 'k1', upload_url: uploadUrls[req.url!], expires_at: '2030-01-01T00:00:00Z' }),
        );
      }
      if (req.url === '/jobs/j1/stage') {
        res.writeHead(409, { 'content-type': 'application/problem+json' });
        return res.end(JSON.stringify({ status: 409, code: 'JOB_CONFLICT', current: { id: 'j1', version: 'v2' } }));
      }
      res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  const config = loadFrontendConfig({ CONTROL_URL: upstreamUrl, TENANTS_HOST: 'tenants.example.test' });
  app = await buildFrontendApp(await composeFrontend(config, t.db), { logger: false, trustProxy: false });
}, 120_000);
afterAll(async () => {
  await app?.close();
  upstream?.close();
  await t?.drop();
});

describe('the frontend', () => {
  it('answers /api/health with status ok on any host', async () => {
    const r = await app.inject({ url: '/api/health', headers: { host: 'nobody.example' } });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
  });

  it('serves the default tenant on localhost and a tenant on its custom domain and its subdomain, each branded', async () => {
    const local = await app.inject({ url: '/field/jobs', headers: { host: 'localhost:8000' } });
    expect(local.statusCode).toBe(200);
    expect(local.headers['x-tenant-slug']).toBe('acme');
    expect(local.body).toContain('Acme Blinds');
    for (const host of ['www.boltshutters.test', 'bolt.tenants.example.test']) {
      const r = await app.inject({ url: '/field/jobs', headers: { host } });
      expect(r.statusCode, host).toBe(200);
      expect(r.headers['x-tenant-id']).toBe(bolt);
      expect(r.body).toContain('Bolt Shutters &amp; Co');
      expect(r.body).toContain('--brand:#8a1538');
      expect(r.body).toContain('href="tel:3035550100"');
      expect(r.body).not.toContain('javascript:alert');
    }
  });

  it("shows the not-found page, naming no tenant, for a host that is nobody's", async () => {
    for (const url of ['/field/jobs', '/contact', '/portal/quote/abcdefghijklmnopqrstuvwxyz']) {
      const r = await app.inject({ url, headers: { host: 'www.unknown-shop.test' } });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type']).toContain('text/html');
      expect(r.body).toContain('Site not found');
      expect(r.body).not.toMatch(/Acme|Bolt/);
    }
    const api = await app.inject({ url: '/api/control/jobs', headers: { host: 'www.unknown-shop.test' } });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('TENANT_NOT_FOUND');
  });

  it("forwards /api/control/* with the host's tenant, dropping tenant headers the browser made up", async () => {
    seen.length = 0;
    const r = await app.inject({
      method: 'POST',
      url: '/api/control/jobs/j9/notes?x=1',
      headers: {
        host: 'www.boltshutters.test',
        'x-tenant-id': acme,
        'x-tenant-slug': 'acme',
        authorization: 'Bearer tok',
        'idempotency-key': 'idem-1',
        'content-type': 'application/json',
      },
      payload: { body: 'Measured twice' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['idempotent-replayed']).toBe('true');
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/jobs/j9/notes?x=1', body: '{"body":"Measured twice"}' });
    expect(seen[0]!.headers).toMatchObject({
      'x-tenant-id': bolt,
      'x-tenant-slug': 'bolt',
      authorization: 'Bearer tok',
      'idempotency-key': 'idem-1',
    });
  });

  it('passes a conflict through unchanged and points a control-plane upload URL back through itself', async () => {
    const c = await app.inject({
      method: 'POST',
      url: '/api/control/jobs/j1/stage',
      headers: { host: 'localhost', 'content-type': 'application/json' },
      payload: {},
    });
    expect(c.statusCode).toBe(409);
    expect(c.json()).toMatchObject({ code: 'JOB_CONFLICT', current: { version: 'v2' } });
    const u = await app.inject({
      method: 'POST',
      url: '/api/control/jobs/j1/uploads',
      headers: { host: 'localhost', 'content-type': 'application/json' },
      payload: {},
    });
    expect(u.json().upload_url).toBe('/api/control/storage/put/k1?sig=abc');
    const upload = async (job: string) =>
      (
        await app.inject({
          method: 'POST',
          url: `/api/control/jobs/${job}/uploads`,
          headers: { host: 'localhost', 'content-type': 'application/json' },
          payload: {},
        })
      ).json().upload_url;
    expect(await upload('j2')).toBe('/api/control/objects/k2?sig=def');
    expect(await upload('j3')).toBe('https://bucket.s3.example.com/k3?X-Amz-Signature=ghi');
    // Download URLs of a job's photos go the same way: the embedded store's through this hop, a bucket's as they are.
    const download = async (job: string) =>
      (
        await app.inject({
          method: 'POST',
          url: `/api/control/jobs/${job}/downloads`,
          headers: { host: 'localhost', 'content-type': 'application/json' },
          payload: { key: 'k' },
        })
      ).json().download_url;
    expect(await download('j1')).toBe('/api/control/objects/k1?method=get&sig=x');
    expect(await download('j3')).toBe('https://bucket.s3.example.com/k3?sig=y');
  });

  it('answers 503 CONTROL_UNAVAILABLE when the control plane does not answer', async () => {
    const config = loadFrontendConfig({ CONTROL_URL: 'http://127.0.0.1:9' });
    const down = await buildFrontendApp(await composeFrontend(config, t.db), { logger: false, trustProxy: false });
    const r = await down.inject({ url: '/api/control/jobs', headers: { host: 'localhost' } });
    expect(r.statusCode).toBe(503);
    expect(r.json().code).toBe('CONTROL_UNAVAILABLE');
    await down.close();
  });

  it('serves an installable manifest, its PNG icons and the service worker', async () => {
    const m = await app.inject({ url: '/manifest.webmanifest', headers: { host: 'www.boltshutters.test' } });
    expect(m.json()).toMatchObject({ start_url: '/field/jobs', display: 'standalone', theme_color: '#8a1538' });
    const icon = await app.inject({ url: '/icons/icon-192.png', headers: { host: 'localhost' } });
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const sw = await app.inject({ url: '/sw.js', headers: { host: 'localhost' } });
    expect(sw.statusCode).toBe(200);
    expect(sw.body).toContain('/field/shell');
  });
});
