import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';

import { AppError, type Clock } from '@platform/kernel';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type CaptchaVerifier, requireCaptchaPass } from './captcha.port.js';
import { hostnameAllowed, normalizeHostname } from './hostname.js';
import { localCaptchaRoutes } from './local/local-captcha.routes.js';
import { LocalSiteverify } from './local/local-siteverify.js';
import { createSiteverifyVerifier } from './recaptcha/siteverify.verifier.js';

const SECRET = 'test-secret-abc123';
const SITE_KEY = 'test-site-key';

class FakeClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 1, 12, 0, 0)) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
}

async function expectUnavailable(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => {
      throw new Error('expected CAPTCHA_UNAVAILABLE');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('CAPTCHA_UNAVAILABLE');
  expect((err as AppError).message).not.toContain(SECRET);
  expect(JSON.stringify((err as AppError).details ?? {})).not.toContain(SECRET);
  return err as AppError;
}

describe('reCAPTCHA siteverify verifier against the local stand-in (HTTP)', () => {
  let app: FastifyInstance;
  let base: string;
  let clock: FakeClock;
  let store: LocalSiteverify;
  let verifier: CaptchaVerifier;

  beforeAll(async () => {
    clock = new FakeClock();
    store = new LocalSiteverify({ secret: SECRET, clock, maxTokens: 100 });
    app = Fastify();
    await localCaptchaRoutes(app, { secret: SECRET, siteKey: SITE_KEY, store });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(() => {
    verifier = createSiteverifyVerifier({
      verifyUrl: `${base}/local-captcha/siteverify`,
      secret: SECRET,
      minScore: 0.5,
      allowedHostnames: ['www.example.com', 'ERP.example.com', '*.landing.test'],
    });
  });

  async function mint(body: Record<string, unknown>): Promise<string> {
    const res = await fetch(`${base}/local-captcha/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const j = (await res.json()) as { token: string };
    expect(typeof j.token).toBe('string');
    return j.token;
  }

  it('passes a fresh human token with the right action and hostname', async () => {
    const token = await mint({ action: 'lead_submit', hostname: 'www.example.com' });
    const v = await verifier.verify({ token, expectedAction: 'lead_submit', remoteIp: '203.0.113.7' });
    expect(v).toEqual({ ok: true, score: 0.9, action: 'lead_submit', hostname: 'www.example.com' });
  });

  it('compares hostnames case-insensitively and without port; supports *.suffix entries', async () => {
    const t1 = await mint({ action: 'lead_submit', hostname: 'erp.EXAMPLE.com:8443' });
    expect((await verifier.verify({ token: t1, expectedAction: 'lead_submit' })).ok).toBe(true);
    const t2 = await mint({ action: 'lead_submit', hostname: 'a.landing.test' });
    expect((await verifier.verify({ token: t2, expectedAction: 'lead_submit' })).ok).toBe(true);
    const t3 = await mint({ action: 'lead_submit', hostname: 'landing.test' });
    expect(await verifier.verify({ token: t3, expectedAction: 'lead_submit' })).toMatchObject({
      ok: false,
      reason: 'wrong_hostname',
    });
  });

  it("admits a token minted on the site's own host (siteHostname), and no other unlisted host", async () => {
    const onSite = await mint({ action: 'lead_submit', hostname: 'www.acme-blinds.example' });
    const siteHostname = 'WWW.acme-blinds.example:443';
    expect(await verifier.verify({ token: onSite, expectedAction: 'lead_submit', siteHostname })).toMatchObject({
      ok: true,
      hostname: 'www.acme-blinds.example',
    });
    const elsewhere = await mint({ action: 'lead_submit', hostname: 'evil.example.net' });
    expect(await verifier.verify({ token: elsewhere, expectedAction: 'lead_submit', siteHostname })).toMatchObject({
      ok: false,
      reason: 'wrong_hostname',
    });
  });

  it('defaults the token hostname to the request Host without port', async () => {
    // fetch() may not set Host, so this one goes through inject()
    const res = await app.inject({
      method: 'POST',
      url: '/local-captcha/token',
      headers: { host: 'www.example.com:3000' },
      payload: { action: 'lead_submit' },
    });
    const { token } = res.json() as { token: string };
    const v = await verifier.verify({ token, expectedAction: 'lead_submit' });
    expect(v).toEqual({ ok: true, score: 0.9, action: 'lead_submit', hostname: 'www.example.com' });
  });

  it('rejects a low score (simulated bot)', async () => {
    const token = await mint({ action: 'lead_submit', hostname: 'www.example.com', score: 0.1 });
    const v = await verifier.verify({ token, expectedAction: 'lead_submit' });
    expect(v).toEqual({
      ok: false,
      reason: 'low_score',
      score: 0.1,
      action: 'lead_submit',
      hostname: 'www.example.com',
      errorCodes: [],
    });
  });

  it('accepts a score exactly at the threshold', async () => {
    const token = await mint({ action: 'lead_submit', hostname: 'www.example.com', score: 0.5 });
    expect((await verifier.verify({ token, expectedAction: 'lead_submit' })).ok).toBe(true);
  });

  it('rejects a wrong action', async () => {
    const token = await mint({ action: 'magnet_signup', hostname: 'www.example.com' });
    const v = await verifier.verify({ token, expectedAction: 'lead_submit' });
    expect(v).toMatchObject({ ok: false, reason: 'wrong_action', action: 'magnet_signup' });
  });

  it('rejects a wrong hostname', async () => {
    const token = await mint({ action: 'lead_submit', hostname: 'evil.example.net' });
    const v = await verifier.verify({ token, expectedAction: 'lead_submit' });
    expect(v).toMatchObject({ ok: false, reason: 'wrong_hostname', hostname: 'evil.example.net' });
  });

  it('a reused token is duplicate_or_expired', async () => {
    const token = await mint({ action: 'lead_submit', hostname: 'www.example.com' });
    expect((await verifier.verify({ token, expectedAction: 'lead_submit' })).ok).toBe(true);
    const again = await verifier.verify({ token, expectedAction: 'lead_submit' });
    expect(again).toEqual({ ok: false, reason: 'duplicate_or_expired', errorCodes: ['timeout-or-duplicate'] });
  });

  it('a token older than 2 minutes is duplicate_or_expired (injected clock)', async () => {
    const fresh = await mint({ action: 'lead_submit', hostname: 'www.example.com' });
    const stale = await mint({ action: 'lead_submit', hostname: 'www.example.com' });
    clock.advance(2 * 60 * 1000);
    expect((await verifier.verify({ token: fresh, expectedAction: 'lead_submit' })).ok).toBe(true);
    clock.advance(1);
    const v = await verifier.verify({ token: stale, expectedAction: 'lead_submit' });
    expect(v).toEqual({ ok: false, reason: 'duplicate_or_expired', errorCodes: ['timeout-or-duplicate'] });
  });

  it('an unknown token is invalid_token', async () => {
    const v = await verifier.verify({ token: 'not-a-real-token', expectedAction: 'lead_submit' });
    expect(v).toEqual({ ok: false, reason: 'invalid_token', errorCodes: ['invalid-input-response'] });
  });

  it('an invalid secret is a failed verdict with the provider code, and the secret is not echoed', async () => {
    const bad = createSiteverifyVerifier({
      verifyUrl: `${base}/local-captcha/siteverify`,
      secret: 'wrong-secret',
      minScore: 0.5,
      allowedHostnames: ['www.example.com'],
    });
    const token = await mint({ action: 'lead_submit', hostname: 'www.example.com' });
    const v = await bad.verify({ token, expectedAction: 'lead_submit' });
    expect(v).toEqual({ ok: false, reason: 'failed', errorCodes: ['invalid-input-secret'] });
    expect(JSON.stringify(v)).not.toContain('wrong-secret');
    // the token was not consumed by the failed call
    expect((await verifier.verify({ token, expectedAction: 'lead_submit' })).ok).toBe(true);
  });

  it('a missing token is reported without calling out', async () => {
    expect(await verifier.verify({ token: '', expectedAction: 'lead_submit' })).toEqual({
      ok: false,
      reason: 'missing',
      errorCodes: [],
    });
    expect(await verifier.verify({ token: '   ', expectedAction: 'lead_submit' })).toMatchObject({ reason: 'missing' });
  });

  it('requireCaptchaPass maps verdicts to AppError codes', async () => {
    await expect(
      requireCaptchaPass(verifier, { token: undefined, expectedAction: 'lead_submit' }),
    ).rejects.toMatchObject({
      code: 'CAPTCHA_MISSING',
    });
    const bot = await mint({ action: 'lead_submit', hostname: 'www.example.com', score: 0 });
    await expect(requireCaptchaPass(verifier, { token: bot, expectedAction: 'lead_submit' })).rejects.toMatchObject({
      code: 'CAPTCHA_REJECTED',
      details: { reason: 'low_score', score: 0 },
    });
    const human = await mint({ action: 'lead_submit', hostname: 'www.example.com' });
    await expect(requireCaptchaPass(verifier, { token: human, expectedAction: 'lead_submit' })).resolves.toMatchObject({
      ok: true,
    });
  });
});

describe('local siteverify protocol', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    await app.register(localCaptchaRoutes, { secret: SECRET, siteKey: SITE_KEY, prefix: '/lc' });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  async function siteverify(
    body: string,
    contentType = 'application/x-www-form-urlencoded',
  ): Promise<Record<string, unknown>> {
    const res = await fetch(`${base}/lc/siteverify`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  it('is mounted once under the registration prefix (no double prefix)', async () => {
    expect((await fetch(`${base}/lc/api.js`)).status).toBe(200);
    expect((await fetch(`${base}/lc/lc/api.js`)).status).toBe(404);
  });

  it('answers the documented error codes', async () => {
    expect(await siteverify('')).toEqual({ success: false, 'error-codes': ['missing-input-secret'] });
    expect(await siteverify('secret=nope&response=x')).toEqual({
      success: false,
      'error-codes': ['invalid-input-secret'],
    });
    expect(await siteverify(`secret=${SECRET}`)).toEqual({ success: false, 'error-codes': ['missing-input-response'] });
    expect(await siteverify(`secret=${SECRET}&response=abc`)).toEqual({
      success: false,
      'error-codes': ['invalid-input-response'],
    });
    expect(await siteverify(JSON.stringify({ secret: SECRET }), 'application/json')).toEqual({
      success: false,
      'error-codes': ['bad-request'],
    });
  });

  it('answers success in the siteverify shape', async () => {
    const res = await fetch(`${base}/lc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'lead_submit', hostname: 'www.example.com', score: 0.7, siteKey: SITE_KEY }),
    });
    const { token } = (await res.json()) as { token: string };
    const body = await siteverify(
      new URLSearchParams({ secret: SECRET, response: token, remoteip: '203.0.113.7' }).toString(),
    );
    expect(body).toMatchObject({
      success: true,
      score: 0.7,
      action: 'lead_submit',
      hostname: 'www.example.com',
      'error-codes': [],
    });
    expect(body['challenge_ts']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('refuses bad mint requests', async () => {
    const post = (b: unknown) =>
      fetch(`${base}/lc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
    expect((await post({ action: 'lead submit!' })).status).toBe(400);
    expect((await post({ action: 'ok', score: 1.5 })).status).toBe(400);
    expect((await post({ action: 'ok', siteKey: 'other' })).status).toBe(400);
    expect((await post({})).status).toBe(400);
  });

  it('keeps a bounded token store, evicting the oldest', () => {
    const s = new LocalSiteverify({ secret: SECRET, maxTokens: 3 });
    const tokens = [0, 1, 2, 3, 4].map(() => s.mint({ action: 'a', hostname: 'h' }));
    expect(s.size).toBe(3);
    expect(s.verify({ secret: SECRET, response: tokens[0] })['error-codes']).toEqual(['invalid-input-response']);
    expect(s.verify({ secret: SECRET, response: tokens[4] }).success).toBe(true);
  });

  it('serves a grecaptcha shim whose execute() fetches a token usable with siteverify', async () => {
    const res = await fetch(`${base}/lc/api.js`);
    expect(res.headers.get('content-type')).toContain('javascript');
    const js = await res.text();
    const calls: string[] = [];
    const readyCalls: string[] = [];
    const window: Record<string, unknown> = {};
    const ctx = {
      window,
      document: {
        currentScript: { src: `${base}/lc/api.js?render=${SITE_KEY}` },
        readyState: 'complete',
        querySelectorAll: () => [],
        addEventListener: () => undefined,
      },
      location: { href: 'https://www.example.com/quote', hostname: 'www.example.com' },
      URL,
      setTimeout,
      fetch: (url: string, init: RequestInit) => {
        calls.push(url);
        return fetch(url, init);
      },
    };
    runInNewContext(js, ctx);
    const g = window['grecaptcha'] as {
      ready(cb: () => void): void;
      execute(siteKey: string, o: { action: string }): Promise<string>;
    };
    const token = await new Promise<string>((resolve, reject) =>
      g.ready(() => {
        readyCalls.push('ready');
        g.execute(SITE_KEY, { action: 'lead_submit' }).then(resolve, reject);
      }),
    );
    expect(readyCalls).toEqual(['ready']);
    expect(calls).toEqual([`${base}/lc/token`]);
    const v = await createSiteverifyVerifier({
      verifyUrl: `${base}/lc/siteverify`,
      secret: SECRET,
      minScore: 0.5,
      allowedHostnames: ['www.example.com'],
    }).verify({ token, expectedAction: 'lead_submit' });
    expect(v).toEqual({ ok: true, score: 0.9, action: 'lead_submit', hostname: 'www.example.com' });
  });
});

describe('verifier down', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map(closeServer));
  });
  const make = (url: string, timeoutMs?: number) =>
    createSiteverifyVerifier({
      verifyUrl: url,
      secret: SECRET,
      minScore: 0.5,
      allowedHostnames: ['x'],
      ...(timeoutMs ? { timeoutMs } : {}),
    });

  it('connection refused → CAPTCHA_UNAVAILABLE', async () => {
    const s = createServer();
    const url = await listen(s);
    await closeServer(s);
    await expectUnavailable(make(`${url}/siteverify`).verify({ token: 't', expectedAction: 'a' }));
  });

  it('HTTP 500 → CAPTCHA_UNAVAILABLE', async () => {
    const s = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"success":false}');
    });
    servers.push(s);
    const err = await expectUnavailable(
      make(`${await listen(s)}/siteverify`).verify({ token: 't', expectedAction: 'a' }),
    );
    expect(err.details).toMatchObject({ status: 500 });
  });

  it('non-JSON body → CAPTCHA_UNAVAILABLE', async () => {
    const s = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
    });
    servers.push(s);
    await expectUnavailable(make(`${await listen(s)}/siteverify`).verify({ token: 't', expectedAction: 'a' }));
  });

  it('slower than the timeout → CAPTCHA_UNAVAILABLE', async () => {
    const s = createServer((_req, res) => {
      setTimeout(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}'),
        2_000,
      ).unref();
    });
    servers.push(s);
    const started = Date.now();
    const err = await expectUnavailable(
      make(`${await listen(s)}/siteverify`, 200).verify({ token: 't', expectedAction: 'a' }),
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(err.details).toMatchObject({ kind: 'timeout' });
  });

  it('rejects bad configuration', () => {
    expect(() =>
      createSiteverifyVerifier({ verifyUrl: 'http://x', secret: '', minScore: 0.5, allowedHostnames: ['x'] }),
    ).toThrow(AppError);
    expect(() =>
      createSiteverifyVerifier({ verifyUrl: 'http://x', secret: 's', minScore: 2, allowedHostnames: ['x'] }),
    ).toThrow(AppError);
    expect(() =>
      createSiteverifyVerifier({ verifyUrl: 'http://x', secret: 's', minScore: 0.5, allowedHostnames: [] }),
    ).toThrow(AppError);
    expect(() =>
      createSiteverifyVerifier({ verifyUrl: 'http://x', secret: 's', minScore: 0.5, allowedHostnames: ['*'] }),
    ).toThrow(/neither a host name nor/);
  });
});

describe('hostname helpers', () => {
  it('normalizes', () => {
    expect(normalizeHostname('WWW.Example.com:443')).toBe('www.example.com');
    expect(normalizeHostname('[::1]:3000')).toBe('::1');
    expect(normalizeHostname('::1')).toBe('::1');
    expect(normalizeHostname('example.com.')).toBe('example.com');
    expect(hostnameAllowed('LOCALHOST:5173', ['localhost'])).toBe(true);
    expect(hostnameAllowed('evil-example.com', ['*.example.com'])).toBe(false);
  });
});
