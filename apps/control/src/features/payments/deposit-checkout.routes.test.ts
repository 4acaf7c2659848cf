/**
 * The deposit checkout on the portal against the local Stripe stand-in: refused before acceptance;
 * once accepted, one session on the tenant's connected account for the server's amount, however
 * many clicks race; a tenant without a connected account tells the customer the office arranges it;
 * a paid deposit reads as paid; another tenant's host never reaches the quote.
 */
import type { RunningLocalStripe } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CrmSalesKit, SalesTenant } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';
import { startWithStripe, type StripeKit } from '../../testing/stripe-kit.js';

let s: StripeKit;
let k: CrmSalesKit;
let stripe: RunningLocalStripe;
let accountA: string;
let KEY: string;

// A connects its Stripe account and finishes onboarding on the stand-in's page; B never does.
beforeAll(async () => {
  s = await startWithStripe();
  ({ k, stripe, accountA, key: KEY } = s);
}, 120_000);
afterAll(() => s?.close());

const onHost = (t: SalesTenant) => ({ 'x-tenant-id': t.id });

async function sentQuote(t: SalesTenant): Promise<{ id: string; token: string }> {
  const q = await k.call('POST', '/sales/quotes', t.office, {
    customer: { name: 'Priya Raman', email: 'priya@example.com' },
    lines: [
      {
        product_code: 'wood-blind',
        room: 'Office',
        width_in: 46,
        drop_in: 58.875,
        mount: 'outside',
        colour: 'Walnut',
        options: [],
      },
    ],
  });
  const sent = await k.call('POST', `/sales/quotes/${q.body.id}/send`, t.office);
  return { id: q.body.id as string, token: sent.body.token as string };
}

const accept = (t: SalesTenant, token: string) =>
  k.call(
    'POST',
    `/portal/quotes/${token}/accept`,
    undefined,
    { name: 'Priya', signature_png_base64: png() },
    onHost(t),
  );
const checkout = (t: SalesTenant, token: string) =>
  k.call('POST', `/portal/quotes/${token}/deposit-checkout`, undefined, undefined, onHost(t));
const portal = async (t: SalesTenant, token: string) =>
  (await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(t))).body.quote;

/** The sessions the stand-in holds on A's account for a quote (Stripe's list API). */
async function sessionsFor(quoteId: string) {
  const r = await fetch(`${stripe.url}/v1/checkout/sessions?limit=100`, {
    headers: { authorization: `Bearer ${KEY}`, 'stripe-account': accountA },
  });
  const all = (await r.json()).data as { id: string; amount_total: number; currency: string; metadata: any }[];
  return all.filter((s) => s.metadata?.ref === quoteId);
}

describe('paying the deposit on the portal', () => {
  it('is refused before the quote is accepted, and makes nothing', async () => {
    const q = await sentQuote(k.a);
    const r = await checkout(k.a, q.token);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'DEPOSIT_NOT_DUE', reason: 'not_accepted' });
    expect(await sessionsFor(q.id)).toHaveLength(0);
  });

  it("makes one session on the tenant's account for the server's amount, whatever twenty racing clicks do", async () => {
    const q = await sentQuote(k.a);
    expect((await accept(k.a, q.token)).status).toBe(200);
    const shown = await portal(k.a, q.token);
    expect(shown.deposit_state).toBe('due');
    const clicks = await Promise.all(Array.from({ length: 20 }, () => checkout(k.a, q.token)));
    expect(clicks.map((c) => c.status)).toEqual(Array(20).fill(200));
    expect(new Set(clicks.map((c) => c.body.session_id)).size).toBe(1);
    expect(new Set(clicks.map((c) => c.body.url)).size).toBe(1);
    expect(clicks[0]!.body.url.startsWith(`${stripe.url}/c/pay/`)).toBe(true);
    const sessions = await sessionsFor(q.id);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      id: clicks[0]!.body.session_id,
      amount_total: Math.round(shown.deposit * 100),
      currency: 'usd',
      metadata: { tenant_id: k.a.id, kind: 'deposit', ref: q.id },
    });
    const rows = await k.kit.t.db.query('SELECT status, amount_minor FROM deposit_payments WHERE quote_id = $1', [
      q.id,
    ]);
    // bigint: a number on PGlite, a string on PostgreSQL.
    const stored = rows.rows.map((r: any) => ({ status: r.status, amount_minor: Number(r.amount_minor) }));
    expect(stored).toEqual([{ status: 'open', amount_minor: Math.round(shown.deposit * 100) }]);
  });

  it('reads as paid once the deposit is paid, and is not asked again', async () => {
    const q = await sentQuote(k.a);
    await accept(k.a, q.token);
    expect((await checkout(k.a, q.token)).status).toBe(200);
    await k.kit.t.db.query(`UPDATE deposit_payments SET status = 'paid', paid_at = now() WHERE quote_id = $1`, [q.id]);
    expect((await portal(k.a, q.token)).deposit_state).toBe('paid');
    const again = await checkout(k.a, q.token);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('paid');
  });

  it('tells the customer the office arranges it when the tenant takes no cards', async () => {
    const q = await sentQuote(k.b);
    await accept(k.b, q.token);
    expect((await portal(k.b, q.token)).deposit_state).toBe('office');
    const r = await checkout(k.b, q.token);
    expect(r.status).toBe(409);
    expect(r.body.reason).toBe('office');
  });

  it("never reaches a quote through another tenant's host", async () => {
    const q = await sentQuote(k.a);
    await accept(k.a, q.token);
    const r = await checkout(k.b, q.token);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('PORTAL_LINK_INVALID');
    expect(await sessionsFor(q.id)).toHaveLength(0);
  });

  it('is paid by the 4242 card through the webhook, once, however often the event comes', async () => {
    const q = await sentQuote(k.a);
    await accept(k.a, q.token);
    const { session_id } = (await checkout(k.a, q.token)).body;
    stripe.pay(session_id, { number: '4242424242424242', expiry: '12/40', cvc: '123' });
    await stripe.flushWebhooks();
    expect((await portal(k.a, q.token)).deposit_state).toBe('paid');
    const paid = async () =>
      (await k.kit.t.db.query('SELECT status, paid_at FROM deposit_payments WHERE session_id = $1', [session_id])).rows;
    const first = await paid();
    expect(first).toEqual([{ status: 'paid', paid_at: expect.any(Date) }]);
    // The same event again (Stripe retries, a reordered delivery) changes nothing.
    const event = stripe.events.find(
      (e: any) => e.type === 'checkout.session.completed' && e.data.object.id === session_id,
    );
    await stripe.resendEvent(event!['id'] as string);
    await stripe.flushWebhooks();
    expect(await paid()).toEqual(first);
    expect((await checkout(k.a, q.token)).body.reason).toBe('paid');
  });
});
