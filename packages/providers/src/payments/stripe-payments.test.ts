/**
 * The payments port's Stripe adapter against the local stand-in: a tenant's connected account,
 * a deposit checkout paid, declined then paid, and authenticated; reads for reconciliation; refunds;
 * webhooks verified into typed events, and refused when forged, tampered, stale or unsigned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningLocalStripe, startLocalStripe, TEST_CARDS } from './local/local-stripe.server.js';
import type { CheckoutInput, PaymentEvent, PaymentsAdapters } from './payments.port.js';
import { PaymentsError } from './payments.port.js';
import { startWebhookReceiver, submitOnboarding, type WebhookReceiver } from './payments.test-helpers.js';
import { stripePaymentsAdapters } from './stripe/stripe-payments.client.js';
import { signStripePayload, stripeWebhookVerifier } from './stripe/stripe-webhook.js';

const KEY = 'sk_test_adapter_0123456789abcdef';
let local: RunningLocalStripe;
let payments: PaymentsAdapters;
let hook: WebhookReceiver;
let secret: string;
const card = { number: TEST_CARDS.success, expiry: '12/34', cvc: '123' };

async function tenantAccount(tenantId: string): Promise<string> {
  const a = await payments.api.createAccount({ tenantId, type: 'express', country: 'US' });
  expect(a.chargesEnabled).toBe(false);
  const link = await payments.api.createOnboardingLink({
    accountId: a.accountId,
    refreshUrl: 'http://office.test/payments/refresh',
    returnUrl: 'http://office.test/payments/return',
  });
  expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now());
  await submitOnboarding(link.url, `${tenantId} Blinds`);
  return a.accountId;
}

const deposit = (accountId: string, ref: string, over: Partial<CheckoutInput> = {}): CheckoutInput => ({
  accountId,
  amountMinor: 21_650,
  currency: 'USD',
  description: `Deposit for quote ${ref}`,
  metadata: { tenantId: 't-1', kind: 'deposit', ref },
  successUrl: 'http://portal.test/paid/{CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://portal.test/quote',
  idempotencyKey: `deposit-${ref}`,
  ...over,
});

async function events(): Promise<PaymentEvent[]> {
  await local.flushWebhooks();
  const v = payments.webhookVerifier([secret]);
  return hook.received.flatMap((r) => {
    const out = v.verify({ headers: { 'stripe-signature': r.signature }, rawBody: r.body });
    if (!out.ok) throw new Error(out.reason);
    return out.envelope.event ? [out.envelope.event] : [];
  });
}

beforeAll(async () => {
  local = await startLocalStripe({ secretKey: KEY, retryDelaysMs: [] });
  payments = stripePaymentsAdapters({ secretKey: KEY, apiBase: local.url, maxNetworkRetries: 0 });
  hook = await startWebhookReceiver();
  secret = local.addWebhookEndpoint(hook.url, { connect: true }).secret;
});
afterAll(async () => {
  await local?.close();
  await hook?.close();
});

describe('the Stripe payments adapter', () => {
  it('onboards a tenant account: charges enabled, its name shown, account.updated received', async () => {
    const id = await tenantAccount('t-1');
    expect(await payments.api.getAccount(id)).toMatchObject({
      accountId: id,
      chargesEnabled: true,
      businessName: 't-1 Blinds',
    });
    expect((await events()).some((e) => e.type === 'account.updated' && e.account.chargesEnabled)).toBe(true);
  });

  it('takes a deposit: the session is paid, read back with card last4, and listed for reconciliation', async () => {
    const acct = await tenantAccount('t-2');
    const since = local.now();
    const s = await payments.api.createCheckout(deposit(acct, 'Q-10'));
    expect(s).toMatchObject({
      status: 'open',
      paymentStatus: 'unpaid',
      amountMinor: 21_650,
      currency: 'USD',
      paymentIntentId: null,
    });
    expect(s.metadata).toEqual({ tenantId: 't-1', kind: 'deposit', ref: 'Q-10' });
    expect(await payments.api.createCheckout(deposit(acct, 'Q-10'))).toMatchObject({ sessionId: s.sessionId });

    expect(local.pay(s.sessionId, { ...card, number: TEST_CARDS.declined })).toMatchObject({ status: 'declined' });
    expect(local.pay(s.sessionId, card)).toMatchObject({ status: 'succeeded' });
    const back = (await payments.api.getCheckout(acct, s.sessionId))!;
    expect([back.status, back.paymentStatus, back.url]).toEqual(['complete', 'paid', null]);
    const paid = (await payments.api.getPayment(acct, back.paymentIntentId!))!;
    expect(paid).toMatchObject({
      status: 'succeeded',
      amountReceivedMinor: 21_650,
      card: { brand: 'visa', last4: '4242' },
      lastError: null,
    });
    expect(paid.chargeId).toMatch(/^ch_/);
    const listed = await payments.api.listCompletedCheckouts({ accountId: acct, since });
    expect(listed.map((x) => x.sessionId)).toEqual([s.sessionId]);
  });

  it('refuses the same idempotency key with another amount, and a bad amount before calling', async () => {
    const acct = await tenantAccount('t-3');
    await payments.api.createCheckout(deposit(acct, 'Q-11'));
    const changed = payments.api.createCheckout(deposit(acct, 'Q-11', { amountMinor: 1 }));
    await expect(changed).rejects.toMatchObject({ kind: 'idempotency_conflict' });
    const fraction = payments.api.createCheckout(deposit(acct, 'Q-12', { amountMinor: 10.5 }));
    await expect(fraction).rejects.toBeInstanceOf(PaymentsError);
  });

  it("sees nothing of another tenant's session or payment", async () => {
    const [a, b] = [await tenantAccount('t-4'), await tenantAccount('t-5')];
    const s = await payments.api.createCheckout(deposit(a, 'Q-13'));
    local.pay(s.sessionId, card);
    const pi = (await payments.api.getCheckout(a, s.sessionId))!.paymentIntentId!;
    expect(await payments.api.getCheckout(b, s.sessionId)).toBeNull();
    expect(await payments.api.getPayment(b, pi)).toBeNull();
    const refund = payments.api.refund({ accountId: b, paymentIntentId: pi, idempotencyKey: 'r-x' });
    await expect(refund).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('refunds part of a payment, announced by charge.refunded with the amount refunded so far', async () => {
    const acct = await tenantAccount('t-6');
    const s = await payments.api.createCheckout(deposit(acct, 'Q-14'));
    local.pay(s.sessionId, card);
    const pi = (await payments.api.getCheckout(acct, s.sessionId))!.paymentIntentId!;
    const r = await payments.api.refund({
      accountId: acct,
      paymentIntentId: pi,
      amountMinor: 5_000,
      ref: 'CN-7',
      idempotencyKey: 'r-1',
    });
    expect(r).toMatchObject({ amountMinor: 5_000, currency: 'USD', status: 'succeeded', paymentIntentId: pi });
    expect((await payments.api.getPayment(acct, pi))!.amountRefundedMinor).toBe(5_000);
    const refunded = (await events()).find((e) => e.type === 'charge.refunded' && e.paymentIntentId === pi);
    expect(refunded).toMatchObject({
      amountRefundedMinor: 5_000,
      metadata: { tenantId: 't-1', kind: 'deposit', ref: 'Q-14' },
    });
  });

  it("announces a dashboard refund by refund.created without the platform's ref, and the platform's own with it", async () => {
    const acct = await tenantAccount('t-9');
    const s = await payments.api.createCheckout(deposit(acct, 'Q-19'));
    local.pay(s.sessionId, card);
    const pi = (await payments.api.getCheckout(acct, s.sessionId))!.paymentIntentId!;
    const ours = await payments.api.refund({
      accountId: acct,
      paymentIntentId: pi,
      amountMinor: 1_000,
      ref: 'invoice 7',
      idempotencyKey: 'r-ours',
    });
    const dashboard = local.refundFromDashboard(acct, pi, 650);
    const created = (await events()).flatMap((e) => (e.type === 'refund.created' ? [e.refund] : []));
    expect(created.filter((r) => r.paymentIntentId === pi)).toEqual([
      { ...ours, accountId: acct, chargeId: expect.stringMatching(/^ch_/), ref: 'invoice 7' },
      expect.objectContaining({ refundId: dashboard['id'], amountMinor: 650, currency: 'USD', ref: null }),
    ]);
    expect((await payments.api.getPayment(acct, pi))!.amountRefundedMinor).toBe(1_650);
  });

  it('reports a declined card and a failed authentication as payment_failed with a message for the customer', async () => {
    const acct = await tenantAccount('t-7');
    const s = await payments.api.createCheckout(deposit(acct, 'Q-15'));
    local.pay(s.sessionId, { ...card, number: TEST_CARDS.authenticationRequired });
    expect(local.authenticate(s.sessionId, false)).toMatchObject({ status: 'declined' });
    const failed = (await events()).filter((e) => e.type === 'payment_intent.payment_failed');
    expect(failed.at(-1)).toMatchObject({
      payment: { accountId: acct, status: 'requires_payment_method', lastError: expect.stringMatching(/authenticate/) },
    });
    local.pay(s.sessionId, { ...card, number: TEST_CARDS.authenticationRequired });
    expect(local.authenticate(s.sessionId, true)).toMatchObject({ status: 'succeeded' });
    const done = (await events()).find(
      (e) => e.type === 'checkout.session.completed' && e.session.sessionId === s.sessionId,
    );
    expect(done).toMatchObject({ session: { accountId: acct, paymentStatus: 'paid', metadata: { ref: 'Q-15' } } });
  });
});

describe('the Stripe webhook verifier', () => {
  const body = JSON.stringify({
    id: 'evt_1',
    object: 'event',
    type: 'account.updated',
    account: 'acct_1',
    created: 1,
    livemode: false,
    data: { object: { id: 'acct_1', charges_enabled: true } },
  });
  const now = new Date('2026-11-27T12:00:00Z');
  const t = Math.floor(now.getTime() / 1000);
  const v = stripeWebhookVerifier(['whsec_new', 'whsec_old'], 300, () => now);
  const check = (signature: string | undefined, raw = body) =>
    v.verify({ headers: { 'stripe-signature': signature }, rawBody: raw });

  it('accepts a body signed with either secret of a roll, naming the connected account', () => {
    const ok = check(signStripePayload(body, 'whsec_old', t - 299));
    expect(ok).toMatchObject({
      ok: true,
      envelope: { eventId: 'evt_1', accountId: 'acct_1', event: { type: 'account.updated' } },
    });
  });
  it('refuses an unsigned, forged, tampered or stale webhook', () => {
    expect(check(undefined)).toEqual({ ok: false, reason: 'missing_signature' });
    expect(check(signStripePayload(body, 'whsec_attacker', t))).toEqual({ ok: false, reason: 'bad_signature' });
    expect(check(signStripePayload(body, 'whsec_new', t), body.replace('true', 'false'))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(check(signStripePayload(body, 'whsec_new', t - 301))).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(check('t=abc,v0=00')).toEqual({ ok: false, reason: 'bad_signature' });
  });
  it('acknowledges an event type the platform does not handle without an event', () => {
    const other = body.replace('account.updated', 'customer.created');
    expect(check(signStripePayload(other, 'whsec_new', t), other)).toMatchObject({
      ok: true,
      envelope: { type: 'customer.created', event: null },
    });
  });
});
