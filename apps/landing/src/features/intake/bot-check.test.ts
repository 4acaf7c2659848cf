import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

const lead = { name: 'Bot Check', email: 'bot@example.com' };

describe('the bot check on /api/estimate (local siteverify stand-in)', () => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding({ DEDUPE_WINDOW_SECONDS: '0' });
  });
  afterAll(() => h.close());

  const outcomes: [string, () => Promise<Record<string, unknown>>, number, string, string | undefined][] = [
    ['no token', async () => ({}), 400, 'CAPTCHA_MISSING', undefined],
    ['an empty token', async () => ({ captcha_token: '  ' }), 400, 'CAPTCHA_MISSING', undefined],
    [
      'a token the verifier never issued',
      async () => ({ captcha_token: 'forged-token' }),
      403,
      'CAPTCHA_REJECTED',
      'invalid_token',
    ],
    [
      'a score under 0.5',
      async () => ({ captcha_token: await h.token('estimate', { score: 0.3 }) }),
      403,
      'CAPTCHA_REJECTED',
      'low_score',
    ],
    [
      'a token for another action',
      async () => ({ captcha_token: await h.token('helpdesk') }),
      403,
      'CAPTCHA_REJECTED',
      'wrong_action',
    ],
    [
      'a token from a host not on the allow-list',
      async () => ({ captcha_token: await h.token('estimate', { hostname: 'evil.example' }) }),
      403,
      'CAPTCHA_REJECTED',
      'wrong_hostname',
    ],
  ];
  it.each(outcomes)('%s: %i and nothing is created', async (_label, extra, status, code, reason) => {
    const before = await h.count('submissions');
    const r = await h.post('/api/estimate', { ...lead, ...(await extra()) });
    expect(r.status).toBe(status);
    expect(r.body.code).toBe(code);
    if (reason) expect(r.body.reason).toBe(reason);
    expect(await h.count('submissions')).toBe(before);
    expect(await h.count('outbox')).toBe(before);
  });

  it('accepts a score at the threshold, and a token only once', async () => {
    const token = await h.token('estimate', { score: 0.5 });
    expect((await h.post('/api/estimate', { ...lead, captcha_token: token })).status).toBe(201);
    const again = await h.post('/api/estimate', { ...lead, name: 'Replay', captcha_token: token });
    expect(again.status).toBe(403);
    expect(again.body.reason).toBe('duplicate_or_expired');
  });

  it('never echoes the token in the problem body', async () => {
    const r = await h.post('/api/estimate', { ...lead, captcha_token: 'secret-looking-token-123' });
    expect(JSON.stringify(r.body)).not.toContain('secret-looking-token-123');
  });
});

describe('a configured verifier (CAPTCHA_SECRET_KEY) that is down or broken', () => {
  let broken: Server;
  const hosts: Record<string, TestLanding> = {};
  const configured = (url: string) => ({
    CAPTCHA_SECRET_KEY: 'prod-secret-key',
    CAPTCHA_SITE_KEY: 'site-key',
    CAPTCHA_ALLOWED_HOSTNAMES: 'www.example.com',
    CAPTCHA_VERIFY_URL: url,
  });
  beforeAll(async () => {
    broken = createServer((_req, res) => res.writeHead(500).end('upstream exploded'));
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    const brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/siteverify`;
    [hosts.unreachable, hosts.broken] = await Promise.all([
      startTestLanding(configured('http://127.0.0.1:9/siteverify')),
      startTestLanding(configured(brokenUrl)),
    ]);
  });
  afterAll(async () => {
    await Promise.all(Object.values(hosts).map((h) => h.close()));
    await new Promise<void>((r) => broken.close(() => r()));
  });

  it.each([
    ['unreachable', 'unreachable'],
    ['answering 500', 'broken'],
  ])('%s: 503 CAPTCHA_UNAVAILABLE and nothing is created', async (_label, which) => {
    const h = hosts[which]!;
    {
      const r = await h.post('/api/estimate', { ...lead, captcha_token: 'some-token' });
      expect(r.status).toBe(503);
      expect(r.body.code).toBe('CAPTCHA_UNAVAILABLE');
      expect(await h.count('submissions')).toBe(0);
      // No local stand-in is mounted when a real secret is configured: there is no way around the check.
      expect((await h.post('/local-captcha/token', { action: 'estimate' })).status).toBe(404);
    }
  });
});
