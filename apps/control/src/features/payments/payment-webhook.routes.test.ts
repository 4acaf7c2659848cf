/**
 * POST /webhooks/payments: the Stripe stand-in's own deliveries (Connect endpoint, signed as Stripe
 * signs) update the tenant's account when onboarding finishes; a forged, tampered, stale or unsigned
 * request is a 400 that records and changes nothing; a duplicate event id is acknowledged and not
 * acted on again; an event for an account no tenant holds is acknowledged and ignored; an event on
 * B's account never touches A's; a paid checkout reaches the (next step's) hook inside the tenant.
 */
import { randomBytes } from 'node:crypto';

import type { CheckoutSession } from '@platform/providers';
import { stripePaymentsAdapters } from '@platform/providers';
import { type RunningLocalStripe, signStripePayload, startLocalStripe } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { PaymentWebhookService } from './payment-webhook.service.js';

const KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WHSEC = `whsec_${randomBytes(16).toString('hex')}`;

let kit: ControlKit;
let stripe: RunningLocalStripe;
let a: { id: string; token: string };
let b: { id: string; token: string };
let accountA: string;
let accountB: string;

const connect = async (t: { id: string; token: string }) => {
  const r = await kit.app.inject({
    method: 'POST',
    url: `/api/tenants/${t.id}/payments/connect`,
    headers: { authorization: `Bearer ${t.token}` },
  });
  return r.json() as { onboarding_url: string; account_id: string };
};
const stored = async (tenantId: string) =>
  (
    await kit.t.db.query<{ charges_enabled: boolean; details_submitted: boolean }>(
      'SELECT charges_enabled, details_submitted FROM payment_accounts WHERE tenant_id = $1',
      [tenantId],
    )
  ).rows[0];
const receipts = async () =>
  (await kit.t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_receipts WHERE provider = 'payments'`))
    .rows[0]!.n;
const now = () => Math.floor(Date.now() / 1000);
const post = (body: string, signature?: string) =>
  kit.app.inject({
    method: 'POST',
    url: '/webhooks/payments',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload: body,
  });
/** An `account.updated` event as the stand-in sends it, for `account` with `enabled`. */
const accountUpdated = (id: string, account: string, enabled: boolean) =>
  JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'account.updated',
    account,
    data: {
      object: {
        id: account,
        object: 'account',
        charges_enabled: enabled,
        details_submitted: enabled,
        payouts_enabled: enabled,
        business_profile: { name: 'X' },
      },
    },
  });

beforeAll(async () => {
  stripe = await startLocalStripe({ secretKey: KEY, host: '127.0.0.1', port: 0, retryDelaysMs: [50] });
  kit = await startControlKit({ STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: stripe.url, STRIPE_WEBHOOK_SECRET: WHSEC });
  const url = await kit.app.listen({ host: '127.0.0.1', port: 0 });
  stripe.addWebhookEndpoint(`${url}/webhooks/payments`, { connect: true, secret: WHSEC });
  a = await kit.tenant('hook-a', 'starter');
  b = await kit.tenant('hook-b', 'starter');
  accountB = (await connect(b)).account_id;
}, 60_000);
afterAll(async () => {
  await kit?.close();
  await stripe?.close();
});

describe('the stand-in delivering to the receiver', () => {
  it("enables the tenant's charges when its onboarding finishes (account.updated)", async () => {
    const link = await connect(a);
    accountA = link.account_id;
    expect(await stored(a.id)).toEqual({ charges_enabled: false, details_submitted: false });
    await fetch(link.onboarding_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'business_name=Hook+A',
      redirect: 'manual',
    });
    await stripe.flushWebhooks();
    const delivery = stripe.deliveries.find((d) => d.type === 'account.updated' && d.body.includes(accountA));
    expect(delivery?.attempts).toEqual([200]);
    expect(await stored(a.id)).toEqual({ charges_enabled: true, details_submitted: true });
    expect(await stored(b.id)).toEqual({ charges_enabled: false, details_submitted: false });
  });

  it('acknowledges a duplicate delivery without acting again', async () => {
    const before = await receipts();
    const event = stripe.events.find((e) => e['type'] === 'account.updated' && e['account'] === accountA)!;
    expect(await stripe.resendEvent(String(event['id']))).toEqual([200]);
    expect(await receipts()).toBe(before);
  });
});

describe('requests the provider did not sign', () => {
  const refused = async (body: string, signature: string | undefined, reason: string) => {
    const before = { a: await stored(a.id), b: await stored(b.id), n: await receipts() };
    const r = await post(body, signature);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'PAYMENT_WEBHOOK_INVALID', reason });
    expect({ a: await stored(a.id), b: await stored(b.id), n: await receipts() }).toEqual(before);
  };

  it('refuses a forged signature (another secret)', async () => {
    const body = accountUpdated('evt_forged', accountB, true);
    await refused(body, signStripePayload(body, 'whsec_not_the_platforms_secret', now()), 'bad_signature');
  });

  it('refuses a tampered body (signed, then changed)', async () => {
    const body = accountUpdated('evt_tampered', accountB, false);
    const signature = signStripePayload(body, WHSEC, now());
    await refused(body.replaceAll('false', 'true'), signature, 'bad_signature');
  });

  it('refuses a stale signature (a replay older than the tolerance)', async () => {
    const body = accountUpdated('evt_stale', accountB, true);
    await refused(body, signStripePayload(body, WHSEC, now() - 600), 'stale_timestamp');
  });

  it('refuses a request without a signature', async () => {
    await refused(accountUpdated('evt_unsigned', accountB, true), undefined, 'missing_signature');
  });
});

describe('signed events', () => {
  it('acts once per event id: the same id with other content is a duplicate', async () => {
    const first = accountUpdated('evt_dup_1', accountB, true);
    expect((await post(first, signStripePayload(first, WHSEC, now()))).statusCode).toBe(200);
    expect(await stored(b.id)).toEqual({ charges_enabled: true, details_submitted: true });
    const replay = accountUpdated('evt_dup_1', accountB, false);
    expect((await post(replay, signStripePayload(replay, WHSEC, now()))).json()).toEqual({ received: true });
    expect(await stored(b.id)).toEqual({ charges_enabled: true, details_submitted: true });
  });

  it('acknowledges and ignores an event for an account no tenant holds', async () => {
    const before = { a: await stored(a.id), b: await stored(b.id), n: await receipts() };
    const body = accountUpdated('evt_other', 'acct_nobodys0000000', false);
    const r = await post(body, signStripePayload(body, WHSEC, now()));
    expect(r.statusCode).toBe(200);
    expect({ a: await stored(a.id), b: await stored(b.id), n: await receipts() }).toEqual(before);
  });

  it("changes only the tenant that holds the event's account", async () => {
    const body = accountUpdated('evt_b_off', accountB, false);
    await post(body, signStripePayload(body, WHSEC, now()));
    expect(await stored(b.id)).toEqual({ charges_enabled: false, details_submitted: false });
    expect(await stored(a.id)).toEqual({ charges_enabled: true, details_submitted: true });
  });
});

describe('a paid checkout', () => {
  it("reaches the checkout hook with the tenant's id; a failing hook records nothing, so a redelivery acts", async () => {
    const api = stripePaymentsAdapters({ secretKey: KEY, apiBase: stripe.url });
    const session = await api.api.createCheckout({
      accountId: accountA,
      amountMinor: 12_500,
      currency: 'USD',
      description: 'Deposit for quote Q-1',
      metadata: { tenantId: a.id, kind: 'deposit', ref: 'q-1' },
      successUrl: 'https://hook-a.example/ok',
      cancelUrl: 'https://hook-a.example/no',
      idempotencyKey: 'hook-test-1',
    });
    stripe.pay(session.sessionId, { number: '4242424242424242', expiry: '12/40', cvc: '123' });
    await stripe.flushWebhooks();
    const event = stripe.events.find((e) => e['type'] === 'checkout.session.completed')!;
    // Under an id of its own: the stand-in already delivered the original to the running receiver.
    const body = JSON.stringify({ ...event, id: 'evt_checkout_hook' });
    const seen: { tenantId: string; session: CheckoutSession }[] = [];
    let fail = true;
    const svc = new PaymentWebhookService(kit.t.db, api.webhookVerifier([WHSEC]), {
      checkoutCompleted: async (_tx, tenantId, s) => {
        if (fail) throw new Error('ERP down');
        seen.push({ tenantId, session: s });
        return undefined;
      },
    });
    const request = () => ({ headers: { 'stripe-signature': signStripePayload(body, WHSEC, now()) }, rawBody: body });
    await expect(svc.receive(request())).rejects.toThrow('ERP down');
    fail = false;
    expect(await svc.receive(request())).toMatchObject({ status: 'handled', tenantId: a.id });
    expect(await svc.receive(request())).toMatchObject({ status: 'duplicate' });
    expect(seen).toEqual([
      {
        tenantId: a.id,
        session: expect.objectContaining({ sessionId: session.sessionId, paymentStatus: 'paid', amountMinor: 12_500 }),
      },
    ]);
  });
});
