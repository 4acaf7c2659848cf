/**
 * The reverse proxy end to end: Debian's nginx in front of the real landing host (trusting only the
 * proxy's address) and the real ERP host's accounting webhook, plus small stand-ins for the field app
 * and the docs site (not built yet). Checks TLS per host, redirects, refusal of unknown hosts, the
 * client address, raw webhook bodies, body limits, WebSocket upgrades and graceful reloads.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';

import { stripePaymentsAdapters } from '@platform/providers';
import { signXeroPayload } from '@platform/providers/local';
import { NginxCertificateInstaller } from '@platform/proxy';
import { requireBinary } from '@platform/proxy/test-support/binaries.js';
import { call } from '@platform/proxy/test-support/net.js';
import { type ProxyHarness, startProxy } from '@platform/proxy/test-support/proxy-harness.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../landing/test/support/landing-harness.js';
import {
  type AccountingHarness,
  startAccountingHarness,
  WEBHOOK_KEY,
} from '../../../worker/test/support/accounting-harness.js';

const nginxBin = requireBinary('nginx');

/** The field app and docs site stand-ins: name the service, echo what the proxy forwarded, answer WebSocket upgrades. */
function standIn(name: string): Promise<Server> {
  const s = createServer((req, res) => {
    const delay = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('delay') ?? 0);
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ service: name, proto: req.headers['x-forwarded-proto'], xff: req.headers['x-forwarded-for'] }),
      );
    }, delay);
  });
  s.on('upgrade', (req, socket) => {
    socket.end(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Service: ${name}\r\n\r\n`,
    );
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}
const addr = (s: Server) => `127.0.0.1:${(s.address() as AddressInfo).port}`;

const PAYMENTS_SECRET = 'whsec_proxy_test_secret';
/** Stripe's signature header over a body (t=…,v1=…): HMAC-SHA256 of `${t}.${body}` with the endpoint secret. */
const stripeSignature = (body: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', PAYMENTS_SECRET).update(`${t}.${body}`).digest('hex')}`;

/** The control plane's side of the payments webhook: the port's own verifier over the bytes nginx passed on. */
function paymentsReceiver(): Promise<Server> {
  const verifier = stripePaymentsAdapters({ secretKey: 'sk_test_proxy' }).webhookVerifier([PAYMENTS_SECRET]);
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = verifier.verify({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = out.ok ? 200 : 400;
      res.end(JSON.stringify(out.ok ? { id: out.envelope.eventId, path: req.url } : { reason: out.reason }));
    });
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}

describe.skipIf(!nginxBin)('reverse proxy (Debian nginx)', () => {
  let landing: TestLanding;
  let acct: AccountingHarness;
  let pwa: Server;
  let docs: Server;
  let control: Server;
  let p: ProxyHarness;
  let ca: string;
  const https = (host: string, path: string, o: Partial<Parameters<typeof call>[0]> = {}) =>
    call({ host, port: p.layout.httpsPort, path, ca, ...o });

  beforeAll(async () => {
    landing = await startTestLanding({ TRUST_PROXY: '127.0.0.1' });
    acct = await startAccountingHarness();
    await acct.configure();
    [pwa, docs, control] = await Promise.all([standIn('pwa'), standIn('docs'), paymentsReceiver()]);
    const erpAddr = `127.0.0.1:${(acct.app.server.address() as AddressInfo).port}`;
    p = await startProxy(
      { erp: erpAddr, landing: new URL(landing.url).host, pwa: addr(pwa), docs: addr(docs) },
      { CONTROL_UPSTREAM: addr(control) },
    );
    ca = p.ca.certPem;
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await landing?.close();
    await acct?.close();
    pwa?.close();
    docs?.close();
    control?.close();
  });

  it('answers /nginx-health with 200', async () => {
    const r = await call({ host: 'anything.test', port: p.layout.httpPort, path: '/nginx-health' });
    expect(r.status).toBe(200);
    expect((await https('www.example.test', '/nginx-health')).status).toBe(200);
  });

  it("reaches each public host's own service over TLS, with HSTS and security headers", async () => {
    const l = await https('www.example.test', '/health');
    expect(l.status).toBe(200);
    expect(JSON.parse(l.body)).toMatchObject({ status: 'ok' });
    expect(l.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(l.headers['x-content-type-options']).toBe('nosniff');
    expect((await https('erp.example.test', '/web/health')).status).toBe(200);
    expect(JSON.parse((await https('app.example.test', '/')).body)).toMatchObject({ service: 'pwa', proto: 'https' });
    expect(JSON.parse((await https('docs.example.test', '/')).body)).toMatchObject({ service: 'docs', proto: 'https' });
  });

  it('redirects HTTP to HTTPS on known hosts, except the ACME challenge path', async () => {
    const r = await call({ host: 'erp.example.test', port: p.layout.httpPort, path: '/web/login?x=1' });
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe(`https://erp.example.test:${p.layout.httpsPort}/web/login?x=1`);
    const challenge = await call({
      host: 'erp.example.test',
      port: p.layout.httpPort,
      path: '/.well-known/acme-challenge/abcdefghijklmnopqrstuvwxyz',
    });
    expect(challenge.status).toBe(404);
    expect(challenge.body).toBe('not found');
  });

  it('refuses an unknown host: no TLS handshake, and plain HTTP is dropped', async () => {
    await expect(https('unknown.example.org', '/')).rejects.toThrow(
      /unrecognized name|alert|ECONNRESET|socket hang up/i,
    );
    await expect(call({ host: 'unknown.example.org', port: p.layout.httpPort, path: '/' })).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
  });

  it('gives the landing host the real client address; a forged X-Forwarded-For is not trusted', async () => {
    const submit = async (via: 'proxy' | 'direct', from: string, email: string) => {
      const body = JSON.stringify({
        name: 'Ip Check',
        email,
        subject: 'Hi',
        message: 'Hello',
        captcha_token: await landing.token('helpdesk'),
      });
      const headers = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' };
      const r =
        via === 'proxy'
          ? await https('www.example.test', '/api/helpdesk', { method: 'POST', body, headers, localAddress: from })
          : await call({
              host: 'localhost',
              port: Number(new URL(landing.url).port),
              path: '/api/helpdesk',
              method: 'POST',
              body,
              headers,
              localAddress: from,
            });
      expect(r.status, r.body).toBe(201);
      return (
        await landing.db.query<{ client_ip: string }>(
          `SELECT client_ip FROM submissions WHERE payload->>'email' = $1`,
          [email],
        )
      ).rows[0]!.client_ip;
    };
    expect(await submit('proxy', '127.0.0.2', 'via-proxy@example.com')).toBe('127.0.0.2');
    expect(await submit('direct', '127.0.0.3', 'direct@example.com')).toBe('127.0.0.3');
  });

  it('delivers a webhook to the ERP host over HTTPS with its raw body intact, so the signature verifies', async () => {
    const body = '{ "events":[],  "firstEventSequence": 0,"lastEventSequence":0, "entropy":"ÄÖÜ-raw" }';
    const headers = { 'content-type': 'application/json', 'x-xero-signature': signXeroPayload(body, WEBHOOK_KEY) };
    expect((await https('erp.example.test', '/acct/webhook', { method: 'POST', body, headers })).status).toBe(200);
    const tampered = await https('erp.example.test', '/acct/webhook', {
      method: 'POST',
      body: body.replace('raw', 'RAW'),
      headers,
    });
    expect(tampered.status).toBe(401);
  });

  it("passes the payment provider's webhook to the control plane with its body and signature intact; nothing else", async () => {
    const body = JSON.stringify({
      id: 'evt_proxy_1',
      object: 'event',
      type: 'customer.created',
      account: 'acct_1',
      created: 1,
      data: { object: { id: 'cus_1' } },
    });
    const headers = { 'content-type': 'application/json', 'stripe-signature': stripeSignature(body) };
    const sent = await https('erp.example.test', '/webhooks/payments', { method: 'POST', body, headers });
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body)).toEqual({ id: 'evt_proxy_1', path: '/webhooks/payments' });
    const tampered = await https('erp.example.test', '/webhooks/payments', {
      method: 'POST',
      body: body.replace('acct_1', 'acct_2'),
      headers,
    });
    expect([tampered.status, JSON.parse(tampered.body).reason]).toEqual([400, 'bad_signature']);
    // Only POST of that exact path: a GET is refused at the proxy, a neighbour path stays the ERP's.
    expect((await https('erp.example.test', '/webhooks/payments')).status).toBe(403);
    const neighbour = await https('erp.example.test', '/webhooks/payments/x', { method: 'POST', body, headers });
    expect(neighbour.status).toBe(404);
  });

  it("refuses a body over the landing host's limit at the proxy (413)", async () => {
    const r = await https('www.example.test', '/api/helpdesk', {
      method: 'POST',
      body: 'x'.repeat(20_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(413);
  });

  it('passes a WebSocket upgrade through to the field app', async () => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: p.layout.httpsPort,
      servername: 'app.example.test',
      ca,
      ALPNProtocols: ['http/1.1'],
    });
    const head = await new Promise<string>((resolve, reject) => {
      socket.once('secureConnect', () =>
        socket.write(
          'GET /ws HTTP/1.1\r\nHost: app.example.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        ),
      );
      socket.once('data', (d: Buffer) => resolve(d.toString()));
      socket.once('error', reject);
    });
    socket.destroy();
    expect(head).toMatch(/^HTTP\/1\.1 101/);
    expect(head).toMatch(/x-service: pwa/i);
  });

  it('serves a tenant domain once its certificate is installed, reloading without dropping a request in flight', async () => {
    const before = https('shop.tenant-one.test', '/health');
    await expect(before).rejects.toThrow();
    const slow = https('app.example.test', '/?delay=1500');
    await new Promise((r) => setTimeout(r, 300));
    const pair = await p.ca.issue(['shop.tenant-one.test']);
    await new NginxCertificateInstaller({ prefix: p.paths.prefix, bin: p.paths.bin }).install([
      { domain: 'shop.tenant-one.test', tenantId: 't1', ...pair },
    ]);
    expect((await slow).status).toBe(200);
    let served: Awaited<ReturnType<typeof https>> | undefined;
    for (let i = 0; i < 40 && !served; i++)
      served = await https('shop.tenant-one.test', '/health').catch(
        () => new Promise<undefined>((r) => setTimeout(() => r(undefined), 50)),
      );
    expect(served?.status).toBe(200);
    expect(JSON.parse(served!.body)).toMatchObject({ status: 'ok' });
  });

  it('never writes a name that is not a plain host name, nor one of the public hosts, into nginx', async () => {
    const pair = await p.ca.issue(['shop.tenant-one.test']);
    const evil = { ...pair, tenantId: 't2', domain: 'x.test; } server { listen 1; include /etc/passwd' };
    const hijack = { ...(await p.ca.issue(['erp.example.test'])), tenantId: 't2', domain: 'erp.example.test' };
    await new NginxCertificateInstaller({ prefix: p.paths.prefix, bin: p.paths.bin }).install([
      { ...pair, tenantId: 't1', domain: 'shop.tenant-one.test' },
      evil,
      hijack,
    ]);
    const conf = readFileSync(join(p.paths.prefix, 'tenant-sites.conf'), 'utf8');
    expect(conf).toContain('server_name shop.tenant-one.test;');
    expect(conf).not.toContain('passwd');
    expect(conf).not.toContain('erp.example.test');
    expect((await https('erp.example.test', '/web/health')).status).toBe(200);
  });
});
