/**
 * Card refunds against a real embedded ERP and the local Stripe stand-in, its webhooks signed and
 * delivered to the control plane: the office refunds part of a card payment (never more than is left,
 * which the invoice then shows); a refund made in Stripe's dashboard is mirrored in the ERP once (a
 * credit note and the money paid back), however often its event comes; the office's own refund,
 * announced by the same event, is not written twice, even when both writers race.
 */
import { createLogger } from '@platform/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startWithStripe, type StripeKit } from '../../testing/stripe-kit.js';
import { CardRefundMirror } from './card-refund.js';
import { invoicePaidByCard } from './invoicing-stripe.test-support.js';

let s: StripeKit;
beforeAll(async () => {
  s = await startWithStripe();
}, 120_000);
afterAll(() => s?.close());

const relayPass = () => s.k.kit.deps.invoicing.relay(createLogger('silent')).tick();
const refundJobs = async (refundId: string) => {
  const r = await s.k.kit.t.db.query(`SELECT payload FROM outbox WHERE topic = 'invoicing.card_refund'`);
  return r.rows
    .map((x: any) => (typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload))
    .filter((p: any) => p.refundId === refundId);
};
/** The ERP's credit notes and refund payments of one provider refund. */
async function erpRecordsOf(refundId: string) {
  const erp = s.k.a.erp.erp;
  const notes = await erp.searchRead('account.move', [['ref', '=', `Refund ${refundId}`]], {
    fields: ['move_type', 'state', 'amount_total', 'reversed_entry_id'],
  });
  const back = await erp.searchRead('account.payment', [['ref', '=', `Card refund ${refundId}`]], {
    fields: ['payment_type', 'amount', 'state'],
  });
  return { notes, back };
}
const refundableOf = async (invoiceId: number, paymentId: number) =>
  (await s.k.call('GET', `/invoices/${invoiceId}`, s.k.a.owner)).body.payments.find((x: any) => x.id === paymentId)
    .refundable_minor as number;

describe('card refunds', () => {
  it('refunds part of the card payment with a credit note in the ERP; never more than is left', async () => {
    const { k } = s;
    const { invoiceId, paymentId, amountMinor } = await invoicePaidByCard(s, k.a);
    expect((await k.call('POST', `/payments/${paymentId}/refund`, k.a.office, { amount_minor: 500 })).status).toBe(403);
    const too = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: amountMinor + 1 });
    expect(too.status).toBe(422);
    expect(too.body.errors).toEqual([expect.objectContaining({ field: 'amount_minor' })]);
    const key = { 'idempotency-key': 'refund-1' };
    const r = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: 500 }, key);
    const again = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: 500 }, key);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(again.body).toEqual(r.body);
    expect(r.body).toMatchObject({ amount_minor: 500, currency: 'USD', refundable_minor: amountMinor - 500 });
    const { notes, back } = await erpRecordsOf(r.body.refund_id);
    expect(notes).toEqual([expect.objectContaining({ move_type: 'out_refund', state: 'posted', amount_total: 5 })]);
    expect(notes[0]!.id).toBe(r.body.credit_note_id);
    expect(back).toEqual([expect.objectContaining({ payment_type: 'outbound', amount: 5, state: 'posted' })]);
    // What is left: the invoice suggests it, and a second refund beyond it is refused naming the amount.
    const left = amountMinor - 500;
    expect(await refundableOf(invoiceId, paymentId)).toBe(left);
    const over = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: left + 1 });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual([expect.objectContaining({ field: 'amount_minor' })]);
    const rest = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, {});
    expect(rest.body).toMatchObject({ amount_minor: left, refundable_minor: 0 });
    expect(await refundableOf(invoiceId, paymentId)).toBe(0);
    expect((await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: 1 })).status).toBe(409);
    // Both refunds' own webhooks queue jobs that find them written: nothing is doubled.
    await s.stripe.flushWebhooks();
    expect(await refundJobs(r.body.refund_id)).toHaveLength(1);
    expect(await relayPass()).toBeGreaterThanOrEqual(2);
    for (const id of [r.body.refund_id, rest.body.refund_id]) {
      const written = await erpRecordsOf(id);
      expect([written.notes.length, written.back.length]).toEqual([1, 1]);
    }
    expect(await refundableOf(invoiceId, paymentId)).toBe(0);
  });

  it('mirrors a refund made in the dashboard once, however often its event is delivered', async () => {
    const { k, stripe } = s;
    const { invoiceId, paymentId, amountMinor, intent } = await invoicePaidByCard(s, k.a);
    const refund = stripe.refundFromDashboard(s.accountA, intent, 700);
    await stripe.flushWebhooks();
    const event = stripe.events.find((e: any) => e.type === 'refund.created' && e.data.object.id === refund['id']);
    await stripe.resendEvent(event!['id'] as string);
    await stripe.flushWebhooks();
    const jobs = await refundJobs(refund['id'] as string);
    expect(jobs).toEqual([
      { invoiceId, paymentIntentId: intent, refundId: refund['id'], amountMinor: 700, currency: 'USD' },
    ]);
    expect(await refundableOf(invoiceId, paymentId)).toBe(amountMinor);
    await relayPass();
    const { notes, back } = await erpRecordsOf(refund['id'] as string);
    expect(notes).toEqual([
      expect.objectContaining({
        move_type: 'out_refund',
        state: 'posted',
        amount_total: 7,
        reversed_entry_id: [invoiceId, expect.any(String)],
      }),
    ]);
    expect(back).toEqual([expect.objectContaining({ payment_type: 'outbound', amount: 7, state: 'posted' })]);
    expect(await refundableOf(invoiceId, paymentId)).toBe(amountMinor - 700);
    // The office's refund of the rest is capped by the dashboard's refund too.
    const over = await k.call('POST', `/payments/${paymentId}/refund`, k.a.owner, { amount_minor: amountMinor - 699 });
    expect(over.status).toBe(422);
  });

  it('writes one credit note when the office and the webhook job race on the same refund', async () => {
    const { k, stripe } = s;
    const { invoiceId, intent } = await invoicePaidByCard(s, k.a);
    const refund = stripe.refundFromDashboard(s.accountA, intent, 300);
    const mirror = new CardRefundMirror(k.kit.deps.db, k.kit.deps.erps, { pauseMs: 20 });
    const r = {
      invoiceId,
      paymentIntentId: intent,
      refundId: refund['id'] as string,
      amountMinor: 300,
      currency: 'USD',
    };
    const ids = await Promise.all([mirror.mirror(k.a.id, r, 'office'), mirror.mirror(k.a.id, r, 'provider')]);
    expect(ids[0]).toBe(ids[1]);
    const { notes, back } = await erpRecordsOf(r.refundId);
    expect([notes.length, back.length]).toEqual([1, 1]);
    const row = await k.kit.t.db.query('SELECT source, credit_note_id FROM card_refunds WHERE refund_id = $1', [
      r.refundId,
    ]);
    expect(row.rows).toEqual([{ source: expect.stringMatching(/^(office|provider)$/), credit_note_id: ids[0] }]);
  });
});
