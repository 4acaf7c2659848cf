/**
 * Connecting to the accounting provider through the ERP host's routes: admin-only start, the
 * callback page, token refresh (rotated refresh token stored, one refresh at a time even across
 * workers), an expired grant shown as "needs reconnect" and fixed by disconnect then connect, a
 * Redirect URI differing by a trailing slash refused with both values shown, and rate limits.
 */
import type { RateLimiter } from '@platform/http-kit';
import { createAccountingServices, RECONNECT_WAIT_MS } from '@platform/integrations';
import { asJobError } from '@platform/integrations/accounting/accounting-calls.js';
import { RetryLater } from '@platform/outbox';
import { AccountingError, createXeroAccountingClient, xeroAccountingAdapters } from '@platform/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type AccountingHarness,
  basic,
  postInvoice,
  PUBLIC_URL,
  pushRow,
  REDIRECT_URI,
  startAccountingHarness,
} from '../../../test/support/accounting-harness.js';

let h: AccountingHarness;
beforeAll(async () => {
  h = await startAccountingHarness();
  await h.configure();
}, 120_000);
afterAll(async () => h?.close());

const MIN = 60_000;
const tokenCalls = () => h.local.requests.filter((r) => r.path === '/connect/token').length;
const openRefresh = async () => {
  const row = await h.connection();
  return h.services.tokens.open(row as never, 'refresh_token', row['refresh_token_enc']);
};
const status = async () =>
  JSON.parse(
    (await h.app.inject({ method: 'GET', url: '/acct/status', headers: { authorization: basic() } })).body,
  ) as Record<string, unknown>;

/** The services a second worker process builds against the same database and the provider's stand-in. */
const anotherWorker = (extra: { limiter?: RateLimiter } = {}) =>
  createAccountingServices(
    h.t.db,
    h.settings,
    xeroAccountingAdapters({
      loginUrl: h.local.url,
      identityUrl: h.local.url,
      apiUrl: h.local.url,
      clock: { now: () => h.local.now() },
    }),
    { clock: { now: () => h.local.now() }, ...extra },
  );

describe('connect', () => {
  it('lets only an ERP admin start the connection', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/acct/connect' })).statusCode).toBe(401);
    const wrong = await h.app.inject({
      method: 'GET',
      url: '/acct/connect',
      headers: { authorization: basic('admin', 'nope') },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('connects end to end: authorize with state and PKCE, callback, organisation linked', async () => {
    const start = await h.app.inject({ method: 'GET', url: '/acct/connect', headers: { authorization: basic() } });
    const url = new URL(String(start.headers.location));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect((await h.connection())['status']).toBe('connecting');
    const page = await h.connect();
    expect(page.status).toBe(200);
    expect(page.body).toContain('Local Demo Company');
    const row = await h.connection();
    expect(row).toMatchObject({
      status: 'connected',
      provider_tenant_id: h.local.tenants[0]!.tenantId,
      oauth_state: null,
      code_verifier_enc: null,
    });
    expect(page.body).not.toContain(await openRefresh());
  });

  it('refuses a replayed callback', async () => {
    const start = await h.app.inject({ method: 'GET', url: '/acct/connect', headers: { authorization: basic() } });
    const state = new URL(String(start.headers.location)).searchParams.get('state');
    const auth = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(auth.headers.get('location')!);
    expect((await h.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` })).statusCode).toBe(200);
    const replay = await h.app.inject({ method: 'GET', url: `/acct/callback?state=${state}&code=x` });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('unknown or was already used');
  });
});

describe('tokens', () => {
  it('refreshes before expiry and stores the rotated refresh token', async () => {
    const before = await openRefresh();
    h.local.advanceTime(26 * MIN);
    const calls = tokenCalls();
    const auth = await h.services.tokens.auth((await h.connection()) as never);
    expect(tokenCalls()).toBe(calls + 1);
    expect(await openRefresh()).not.toBe(before);
    expect(auth.tenantId).toBe(h.local.tenants[0]!.tenantId);
  });

  it('refreshes once when callers in two workers need a token at the same time', async () => {
    h.local.advanceTime(26 * MIN);
    const other = anotherWorker();
    const row = await h.connection();
    const calls = tokenCalls();
    const got = await Promise.all([
      h.services.tokens.auth(row as never),
      h.services.tokens.auth(row as never),
      other.tokens.auth(row as never),
    ]);
    expect(tokenCalls()).toBe(calls + 1);
    expect(new Set(got.map((a) => a.accessToken)).size).toBe(1);
  });

  it('shows an expired grant as needs reconnect; jobs wait; disconnect then connect fixes it', async () => {
    h.local.expireGrant(await openRefresh());
    h.local.advanceTime(26 * MIN);
    const invoice = await postInvoice(h);
    const err = await h.handlers['accounting.push_invoice']!(pushRow(h, invoice)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect((err as RetryLater).retryAfterMs).toBe(RECONNECT_WAIT_MS);
    expect(await status()).toMatchObject({
      status: 'needs_reconnect',
      status_detail: expect.stringContaining('disconnect'),
    });
    const off = await h.app.inject({ method: 'POST', url: '/acct/disconnect', headers: { authorization: basic() } });
    expect(off.statusCode).toBe(200);
    expect(await h.connection()).toMatchObject({
      status: 'disconnected',
      access_token_enc: null,
      refresh_token_enc: null,
    });
    expect((await h.connect()).status).toBe(200);
    expect((await status())['status']).toBe('connected');
    expect(await h.handlers['accounting.push_invoice']!(pushRow(h, invoice))).toMatchObject({ pushed: true });
  });

  it('refuses a cross-site disconnect', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/acct/disconnect',
      headers: { authorization: basic(), origin: 'https://evil.example' },
    });
    expect(r.statusCode).toBe(403);
    expect((await h.connection())['status']).toBe('connected');
  });
});

describe('redirect URI with a trailing slash', () => {
  beforeAll(async () => h.configure(2, `${REDIRECT_URI}/`));

  it('is refused by the provider, whose page names both values', async () => {
    const page = await h.connect(2);
    expect(page.status).toBe(400);
    expect(page.body).toContain(`${REDIRECT_URI}/`);
    expect(page.body).toContain(`<code>${REDIRECT_URI}</code>`);
  });

  it('gets our error page with both values when the callback arrives elsewhere', async () => {
    const start = await h.app.inject({
      method: 'GET',
      url: '/acct/connect?company=2',
      headers: { authorization: basic() },
    });
    const state = new URL(String(start.headers.location)).searchParams.get('state');
    const page = await h.app.inject({ method: 'GET', url: `/acct/callback?state=${state}&code=abc` });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Redirect URI mismatch');
    expect(page.body).toContain(`<code>${PUBLIC_URL}/acct/callback/</code>`);
    expect(page.body).toContain(`<code>${PUBLIC_URL}/acct/callback</code>`);
    expect((await h.connection(2))['status']).not.toBe('connected');
  });
});

describe('rate limits', () => {
  it('turns a provider 429 into RetryLater after its Retry-After', () => {
    const e = asJobError(new AccountingError('rate_limited', '429', { status: 429, retryAfterSeconds: 7 }), 'x');
    expect(e).toBeInstanceOf(RetryLater);
    expect((e as RetryLater).retryAfterMs).toBe(7000);
  });

  it('waits as the provider says when it answers 429', async () => {
    h.local.advanceTime(MIN);
    const noLocalLimit = { consume: async () => {} } as unknown as RateLimiter;
    const other = anotherWorker({ limiter: noLocalLimit });
    const row = await h.connection();
    const api = createXeroAccountingClient({ apiUrl: h.local.url });
    const invoiceId = String(h.local.invoices()[0]!['InvoiceID']);
    const err = await (async () => {
      for (let n = 0; n < 100; n++)
        await other.calls.call(row as never, 'get invoice', (auth) => api.getInvoice(auth, invoiceId));
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect(h.local.requests.at(-1)!.status).toBe(429);
    expect((err as RetryLater).retryAfterMs).toBeGreaterThan(0);
  });

  it('keeps to 60 calls a minute per organisation, then waits without calling the provider', async () => {
    h.local.advanceTime(MIN);
    const row = await h.connection();
    const api = (auth: { accessToken: string; tenantId: string }) =>
      fetch(`${h.local.url}/connections`, { headers: { authorization: `Bearer ${auth.accessToken}` } });
    let n = 0;
    const err = await (async () => {
      for (; n < 100; n++) await h.services.calls.call(row as never, 'probe', api);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect(n).toBeLessThanOrEqual(60);
    const sent = h.local.requests.length;
    await expect(h.services.calls.call(row as never, 'probe', api)).rejects.toBeInstanceOf(RetryLater);
    expect(h.local.requests.length).toBe(sent);
  });
});
