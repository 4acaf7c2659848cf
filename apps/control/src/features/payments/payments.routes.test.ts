/**
 * The tenant's payments settings against the local Stripe stand-in: nothing connected reads as such
 * with the 50 % default; Connect makes the account once (a second call reuses it) and answers an
 * onboarding URL that comes back to the console's Payments screen; onboarding on the stand-in's page
 * enables charges; the deposit rule is validated naming the field; office staff are refused; tenant B
 * can neither read nor change A's settings.
 */
import { randomBytes } from 'node:crypto';

import { type RunningLocalStripe, startLocalStripe } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

type T = Awaited<ReturnType<ControlKit['tenant']>>;
const KEY = `sk_test_${randomBytes(12).toString('hex')}`;

let kit: ControlKit;
let stripe: RunningLocalStripe;
let a: T;
let b: T;

beforeAll(async () => {
  stripe = await startLocalStripe({ secretKey: KEY, host: '127.0.0.1', port: 0 });
  kit = await startControlKit({
    STRIPE_SECRET_KEY: KEY,
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(16).toString('hex')}`,
    TENANT_PUBLIC_ORIGIN: 'https://{host}',
  });
  a = await kit.tenant('pay-a', 'starter');
  b = await kit.tenant('pay-b', 'starter');
}, 60_000);
afterAll(async () => {
  await kit?.close();
  await stripe?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', t: { id: string }, rest: string, token: string, payload?: object) =>
  kit.app.inject({
    method,
    url: `/api/tenants/${t.id}/payments${rest}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const fields = (r: { json(): any }) => (r.json().errors as { field: string }[]).map((e) => e.field);

describe('reading the payments settings', () => {
  it('says nothing is connected and asks the default 50 % deposit', async () => {
    const r = await call('GET', b, '', b.token);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      available: true,
      account: {
        state: 'not_connected',
        account_id: null,
        charges_enabled: false,
        details_submitted: false,
        connected_at: null,
        updated_at: null,
      },
      deposit_rule: { kind: 'percent', percent: 50 },
      currency: 'USD',
    });
  });

  it('refuses office staff (403) and another tenant (404)', async () => {
    const office = await kit.member(a.id, 'office');
    expect((await call('GET', a, '', office.token)).statusCode).toBe(403);
    expect((await call('POST', a, '/connect', office.token)).statusCode).toBe(403);
    expect((await call('PUT', a, '/deposit-rule', office.token, { kind: 'none' })).statusCode).toBe(403);
    expect((await call('GET', a, '', b.token)).statusCode).toBe(404);
  });
});

describe('connecting the Stripe account', () => {
  it('makes the account once, reuses it, and onboarding on the stand-in enables charges', async () => {
    const first = await call('POST', a, '/connect', a.token);
    expect(first.statusCode).toBe(200);
    const { onboarding_url, account_id } = first.json();
    expect(account_id).toMatch(/^acct_/);
    expect(onboarding_url.startsWith(`${stripe.url}/connect/setup/`)).toBe(true);
    const again = await call('POST', a, '/connect', a.token);
    expect(again.json().account_id).toBe(account_id);
    expect(again.json().onboarding_url).not.toBe(onboarding_url);
    expect((await call('GET', a, '', a.token)).json().account).toMatchObject({
      state: 'onboarding',
      account_id,
      charges_enabled: false,
    });

    // The owner submits the stand-in's onboarding page, which sends them back to the Payments screen.
    const done = await fetch(onboarding_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'business_name=Pay+A+Blinds',
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('https://pay-a.tenants.localhost/office/settings/payments');
    const after = (await call('GET', a, '', a.token)).json();
    expect(after.account).toMatchObject({ state: 'connected', charges_enabled: true, details_submitted: true });
    // B still has no account: A's is not B's.
    expect((await call('GET', b, '', b.token)).json().account.state).toBe('not_connected');
  });

  it("refuses to connect another tenant's account", async () => {
    expect((await call('POST', b, '/connect', a.token)).statusCode).toBe(404);
    expect((await call('GET', b, '', b.token)).json().account.account_id).toBeNull();
  });
});

describe('the deposit rule', () => {
  it('saves a percent, a fixed amount and none', async () => {
    const pct = await call('PUT', a, '/deposit-rule', a.token, { kind: 'percent', percent: 30 });
    expect(pct.statusCode).toBe(200);
    expect(pct.json().deposit_rule).toEqual({ kind: 'percent', percent: 30 });
    const fixed = await call('PUT', a, '/deposit-rule', a.token, { kind: 'fixed', amount_minor: 25_000 });
    expect(fixed.json().deposit_rule).toEqual({ kind: 'fixed', amount_minor: 25_000 });
    expect((await call('GET', a, '', a.token)).json().deposit_rule).toEqual({ kind: 'fixed', amount_minor: 25_000 });
    const none = await call('PUT', a, '/deposit-rule', a.token, { kind: 'none' });
    expect(none.json().deposit_rule).toEqual({ kind: 'none' });
  });

  it('refuses a bad rule with a 422 naming the field, and changes nothing', async () => {
    await call('PUT', a, '/deposit-rule', a.token, { kind: 'percent', percent: 40 });
    for (const [body, field] of [
      [{ kind: 'percent', percent: 0 }, 'percent'],
      [{ kind: 'percent', percent: 101 }, 'percent'],
      [{ kind: 'percent', percent: 30.5 }, 'percent'],
      [{ kind: 'percent' }, 'percent'],
      [{ kind: 'fixed', amount_minor: 0 }, 'amount_minor'],
      [{ kind: 'fixed', amount_minor: 12.5 }, 'amount_minor'],
      [{ kind: 'fixed', amount_minor: 10_000_001 }, 'amount_minor'],
      [{ kind: 'half' }, 'kind'],
    ] as const) {
      const r = await call('PUT', a, '/deposit-rule', a.token, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(422);
      expect(r.headers['content-type']).toContain('application/problem+json');
      expect(fields(r), JSON.stringify(body)).toContain(field);
    }
    expect((await call('GET', a, '', a.token)).json().deposit_rule).toEqual({ kind: 'percent', percent: 40 });
  });

  it("refuses to change another tenant's rule", async () => {
    const r = await call('PUT', b, '/deposit-rule', a.token, { kind: 'none' });
    expect(r.statusCode).toBe(404);
    expect((await call('GET', b, '', b.token)).json().deposit_rule).toEqual({ kind: 'percent', percent: 50 });
  });
});

describe('without a payments provider', () => {
  it('reads as unavailable and refuses to connect (503), changing nothing', async () => {
    const bare = await startControlKit();
    try {
      const t = await bare.tenant('pay-bare');
      const r = await bare.app.inject({
        method: 'POST',
        url: `/api/tenants/${t.id}/payments/connect`,
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ code: 'PAYMENTS_NOT_CONFIGURED' });
      const view = await bare.app.inject({
        method: 'GET',
        url: `/api/tenants/${t.id}/payments`,
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(view.json()).toMatchObject({ available: false, account: { state: 'not_connected' } });
    } finally {
      await bare.close();
    }
  }, 30_000);
});
