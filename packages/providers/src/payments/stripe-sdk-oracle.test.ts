/**
 * Stripe's official Node SDK as the oracle of the local stand-in: every call the adapter makes is
 * made here with the SDK itself (pointed at the stand-in with host/port/protocol), and what the
 * stand-in answers the SDK reads; every webhook it sends passes `stripe.webhooks.constructEvent`,
 * and a tampered or stale one does not.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type RunningLocalStripe, startLocalStripe, TEST_CARDS } from './local/local-stripe.server.js';
import { startWebhookReceiver, submitOnboarding, type WebhookReceiver } from './payments.test-helpers.js';

const KEY = 'sk_test_oracle_0123456789abcdef';
let local: RunningLocalStripe;
let stripe: Stripe;
let hook: WebhookReceiver;
let secret: string;

const card = { number: TEST_CARDS.success, expiry: '12 / 34', cvc: '123' };

async function onboarded(name: string): Promise<string> {
  const a = await stripe.accounts.create({ type: 'express', metadata: { tenant_id: name } });
  const link = await stripe.accountLinks.create({
    account: a.id,
    type: 'account_onboarding',
    refresh_url: 'http://office.test/refresh',
    return_url: 'http://office.test/return',
  });
  expect(await submitOnboarding(link.url, name)).toBe('http://office.test/return');
  return a.id;
}

function sessionParams(amount: number, ref: string): Stripe.Checkout.SessionCreateParams {
  return {
    mode: 'payment',
    line_items: [
      { quantity: 1, price_data: { currency: 'usd', unit_amount: amount, product_data: { name: `Deposit ${ref}` } } },
    ],
    metadata: { tenant_id: 't1', kind: 'deposit', ref },
    payment_intent_data: { metadata: { tenant_id: 't1', kind: 'deposit', ref } },
    success_url: 'http://portal.test/paid?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://portal.test/quote',
  };
}

beforeAll(async () => {
  local = await startLocalStripe({ secretKey: KEY, retryDelaysMs: [20, 20] });
  const base = new URL(local.url);
  stripe = new Stripe(KEY, { host: base.hostname, port: base.port, protocol: 'http', maxNetworkRetries: 0 });
  hook = await startWebhookReceiver();
  const endpoint = await stripe.webhookEndpoints.create({ url: hook.url, enabled_events: ['*'], connect: true });
  secret = endpoint.secret!;
  expect(secret).toMatch(/^whsec_/);
});
afterAll(async () => {
  await local?.close();
  await hook?.close();
});

describe('the Stripe stand-in, spoken to by the official SDK', () => {
  it('creates a Connect account whose onboarding link enables charges, announced by account.updated', async () => {
    const id = await onboarded('Blinds & Co');
    expect(id).toMatch(/^acct_/);
    const a = await stripe.accounts.retrieve(id);
    expect([a.charges_enabled, a.details_submitted, a.business_profile?.name]).toEqual([true, true, 'Blinds & Co']);
    await local.flushWebhooks();
    const updated = hook.received.map((r) => stripe.webhooks.constructEvent(r.body, r.signature, secret));
    expect(updated.find((e) => e.type === 'account.updated' && e.account === id)).toBeDefined();
  });

  it('refuses an account link used twice by sending the owner to refresh_url', async () => {
    const a = await stripe.accounts.create({ type: 'standard' });
    const link = await stripe.accountLinks.create({
      account: a.id,
      type: 'account_onboarding',
      refresh_url: 'http://office.test/refresh',
      return_url: 'http://office.test/return',
    });
    await submitOnboarding(link.url, 'Once');
    expect(await submitOnboarding(link.url, 'Twice')).toBe('http://office.test/refresh');
  });

  it('makes a checkout session on the connected account, paid and read back with its PaymentIntent and charge', async () => {
    const acct = await onboarded('Shade Shop');
    const s = await stripe.checkout.sessions.create(sessionParams(12_550, 'Q-1'), { stripeAccount: acct });
    expect(s.id).toMatch(/^cs_test_/);
    expect([s.status, s.payment_status, s.amount_total, s.currency]).toEqual(['open', 'unpaid', 12_550, 'usd']);
    expect(s.metadata).toEqual({ tenant_id: 't1', kind: 'deposit', ref: 'Q-1' });
    expect(s.url).toBe(`${local.url}/c/pay/${s.id}`);

    const paid = local.pay(s.id, card);
    expect(paid).toEqual({ status: 'succeeded', successUrl: `http://portal.test/paid?session=${s.id}` });
    const back = await stripe.checkout.sessions.retrieve(
      s.id,
      { expand: ['payment_intent.latest_charge'] },
      { stripeAccount: acct },
    );
    expect([back.status, back.payment_status, back.url]).toEqual(['complete', 'paid', null]);
    const pi = back.payment_intent as Stripe.PaymentIntent;
    expect(pi.id).toMatch(/^pi_/);
    expect([pi.status, pi.amount_received, pi.metadata['ref']]).toEqual(['succeeded', 12_550, 'Q-1']);
    const charge = pi.latest_charge as Stripe.Charge;
    expect(charge.id).toMatch(/^ch_/);
    expect(charge.payment_method_details?.card).toEqual({ brand: 'visa', last4: '4242' });

    const listed = await stripe.checkout.sessions.list(
      { status: 'complete', created: { gte: s.created }, limit: 10 },
      { stripeAccount: acct },
    );
    expect(listed.data.map((x) => x.id)).toEqual([s.id]);
  });

  it('replays a POST with the same Idempotency-Key and refuses the key with other parameters', async () => {
    const acct = await onboarded('Idem');
    const first = await stripe.checkout.sessions.create(sessionParams(5_000, 'Q-2'), {
      stripeAccount: acct,
      idempotencyKey: 'k-1',
    });
    const again = await stripe.checkout.sessions.create(sessionParams(5_000, 'Q-2'), {
      stripeAccount: acct,
      idempotencyKey: 'k-1',
    });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = stripe.checkout.sessions.create(sessionParams(5_001, 'Q-2'), {
      stripeAccount: acct,
      idempotencyKey: 'k-1',
    });
    await expect(other).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("does not find one account's session, payment or refund target from another account", async () => {
    const [a, b] = [await onboarded('A'), await onboarded('B')];
    const s = await stripe.checkout.sessions.create(sessionParams(9_900, 'Q-3'), { stripeAccount: a });
    local.pay(s.id, card);
    const pi = (await stripe.checkout.sessions.retrieve(s.id, {}, { stripeAccount: a })).payment_intent as string;
    const fromB = stripe.checkout.sessions.retrieve(s.id, {}, { stripeAccount: b });
    await expect(fromB).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 404,
      code: 'resource_missing',
    });
    await expect(stripe.paymentIntents.retrieve(pi, {}, { stripeAccount: b })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(stripe.refunds.create({ payment_intent: pi }, { stripeAccount: b })).rejects.toMatchObject({
      code: 'resource_missing',
    });
    expect((await stripe.checkout.sessions.list({}, { stripeAccount: b })).data).toEqual([]);
  });

  it('refunds part then the rest of a payment, and refuses more than is left', async () => {
    const acct = await onboarded('Refunds');
    const s = await stripe.checkout.sessions.create(sessionParams(10_000, 'Q-4'), { stripeAccount: acct });
    local.pay(s.id, card);
    const pi = (await stripe.checkout.sessions.retrieve(s.id, {}, { stripeAccount: acct })).payment_intent as string;
    const part = await stripe.refunds.create(
      { payment_intent: pi, amount: 2_500, metadata: { ref: 'CN-1' } },
      { stripeAccount: acct },
    );
    expect(part.id).toMatch(/^re_/);
    expect([part.amount, part.status, part.currency]).toEqual([2_500, 'succeeded', 'usd']);
    const over = stripe.refunds.create({ payment_intent: pi, amount: 7_501 }, { stripeAccount: acct });
    await expect(over).rejects.toMatchObject({ code: 'amount_too_large', param: 'amount' });
    expect((await stripe.refunds.create({ payment_intent: pi }, { stripeAccount: acct })).amount).toBe(7_500);
    const charge = (await stripe.paymentIntents.retrieve(pi, { expand: ['latest_charge'] }, { stripeAccount: acct }))
      .latest_charge as Stripe.Charge;
    expect([charge.amount_refunded, charge.refunded]).toEqual([10_000, true]);
    // A refund made in the dashboard is announced like these: refund.created, read by constructEvent.
    const other = await stripe.checkout.sessions.create(sessionParams(4_000, 'Q-5'), { stripeAccount: acct });
    local.pay(other.id, card);
    const pi2 = (await stripe.checkout.sessions.retrieve(other.id, {}, { stripeAccount: acct })).payment_intent;
    const dashboard = local.refundFromDashboard(acct, pi2 as string, 1_500);
    await local.flushWebhooks();
    const created = hook.received
      .map((r) => stripe.webhooks.constructEvent(r.body, r.signature, secret))
      .filter((e): e is Stripe.RefundCreatedEvent => e.type === 'refund.created' && e.account === acct)
      .map((e) => e.data.object);
    expect(created.map((r) => [r.amount, r.payment_intent, r.metadata])).toEqual([
      [2_500, pi, { ref: 'CN-1' }],
      [7_500, pi, {}],
      [1_500, pi2, {}],
    ]);
    expect(created[2]!.id).toBe(dashboard['id']);
  });

  it('answers a wrong key, a missing parameter and an unknown account with Stripe errors', async () => {
    const base = new URL(local.url);
    const wrong = new Stripe('sk_test_wrong_key_000000', { host: base.hostname, port: base.port, protocol: 'http' });
    await expect(wrong.accounts.create({ type: 'express' })).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    const acct = await onboarded('Errors');
    const noUrl = stripe.checkout.sessions.create(
      { ...sessionParams(5_000, 'Q-5'), success_url: undefined },
      { stripeAccount: acct },
    );
    await expect(noUrl).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'success_url' });
    const tooSmall = stripe.checkout.sessions.create(sessionParams(10, 'Q-5'), { stripeAccount: acct });
    await expect(tooSmall).rejects.toMatchObject({ code: 'amount_too_small' });
    const unknown = stripe.checkout.sessions.list({}, { stripeAccount: 'acct_doesnotexist' });
    await expect(unknown).rejects.toBeInstanceOf(Stripe.errors.StripePermissionError);
  });

  it('sends webhooks that constructEvent accepts, retries a failed delivery, and fails tampered or stale ones', async () => {
    const acct = await onboarded('Hooks');
    await local.flushWebhooks();
    hook.received.length = 0;
    hook.answers.push(500);
    const s = await stripe.checkout.sessions.create(sessionParams(7_700, 'Q-6'), { stripeAccount: acct });
    local.pay(s.id, { ...card, number: TEST_CARDS.declined });
    local.pay(s.id, card);
    await local.flushWebhooks();
    const events = hook.received.map((r) => stripe.webhooks.constructEvent(r.body, r.signature, secret));
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set(['payment_intent.payment_failed', 'payment_intent.succeeded', 'checkout.session.completed']),
    );
    expect(events.every((e) => e.account === acct && e.id.startsWith('evt_'))).toBe(true);
    const failed = local.deliveries.find((d) => d.type === 'payment_intent.payment_failed' && d.attempts[0] === 500);
    expect(failed?.attempts).toEqual([500, 200]);

    const one = hook.received[0]!;
    expect(() => stripe.webhooks.constructEvent(one.body.replace('7700', '7701'), one.signature, secret)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    local.advanceTime(-301_000);
    await local.resendEvent(events[0]!.id);
    const stale = hook.received.at(-1)!;
    local.advanceTime(301_000);
    expect(() => stripe.webhooks.constructEvent(stale.body, stale.signature, secret)).toThrow(/timestamp/i);
  });
});
