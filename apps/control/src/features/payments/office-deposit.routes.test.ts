/**
 * The office records a cash, check or bank deposit (`POST /sales/quotes/{id}/deposit`): the same ERP
 * path as a card deposit (the order confirmed, the down-payment invoice posted and paid on the cash or
 * bank journal), once per quote; the Idempotency-Key replays the first answer; another tenant's quote
 * is a 404 that records nothing; technicians may not; bad input names its field.
 */
import { TOPIC_DEPOSIT_ERP } from '@platform/contracts';
import { createLogger } from '@platform/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, type SalesTenant, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { depositMarker } from './deposit-erp.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

async function quote(t: SalesTenant) {
  const q = await k.call('POST', '/sales/quotes', t.office, {
    customer: { name: 'Sam Ortiz', email: 'sam@example.com' },
    lines: [
      {
        product_code: 'wood-blind',
        room: 'Hall',
        width_in: 30,
        drop_in: 40,
        mount: 'inside',
        colour: 'Oak',
        options: [],
      },
    ],
  });
  expect(q.status, JSON.stringify(q.body)).toBe(201);
  return { id: q.body.id as string, order: q.body.sale_order_id as number, total: q.body.amount_total as number };
}

const record = (t: SalesTenant, token: string, id: string, body: unknown, key?: string) =>
  k.call('POST', `/sales/quotes/${id}/deposit`, token, body, key ? { 'idempotency-key': key } : {});
const relayPass = () => k.kit.deps.payments.relay(createLogger('silent'), 'test-relay').tick();
const jobs = async (quoteId: string) =>
  (await k.kit.t.db.query(`SELECT id FROM outbox WHERE topic = $1 AND aggregate_id = $2`, [TOPIC_DEPOSIT_ERP, quoteId]))
    .rows;

describe('the office records a deposit', () => {
  it('confirms the order and posts and pays the down payment on the cash journal, once', async () => {
    const q = await quote(k.a);
    const body = { method: 'cash', amount_minor: 5_000, reference: 'Receipt 118' };
    const first = await record(k.a, k.a.office, q.id, body, 'dep-1');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toEqual({
      quote_id: q.id,
      status: 'paid',
      method: 'cash',
      amount_minor: 5_000,
      currency: 'USD',
      erp: 'pending',
    });
    // The same key again: the first answer; another body under it: refused.
    const again = await record(k.a, k.a.office, q.id, body, 'dep-1');
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await record(k.a, k.a.office, q.id, { ...body, amount_minor: 6_000 }, 'dep-1')).status).toBe(422);
    // A second deposit under another key: already paid.
    const second = await record(k.a, k.a.office, q.id, body, 'dep-2');
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'DEPOSIT_NOT_DUE', reason: 'paid' });
    expect(await jobs(q.id)).toHaveLength(1);

    await relayPass();
    const erp = k.a.erp.erp;
    const [order] = await erp.read('sale.order', [q.order], ['state', 'invoice_ids']);
    expect(order!.state).toBe('sale');
    const invoices = await erp.read('account.move', order!.invoice_ids as number[], [
      'state',
      'amount_total',
      'payment_state',
    ]);
    expect(invoices).toEqual([{ id: expect.any(Number), state: 'posted', amount_total: 50, payment_state: 'paid' }]);
    const payments = await erp.searchRead('account.payment', [['ref', '=', depositMarker(q.id)]], {
      fields: ['amount', 'journal_id'],
    });
    expect(payments).toHaveLength(1);
    expect(payments[0]!.amount).toBe(50);
    const [journal] = await erp.read('account.journal', [(payments[0]!.journal_id as [number])[0]], ['type']);
    expect(journal!.type).toBe('cash');
  });

  it('takes a check on the bank journal when the quote was never accepted on the portal', async () => {
    const q = await quote(k.b);
    expect((await record(k.b, k.b.owner, q.id, { method: 'check', amount_minor: 1_234 })).status).toBe(201);
    await relayPass();
    const erp = k.b.erp.erp;
    const [payment] = await erp.searchRead('account.payment', [['ref', '=', depositMarker(q.id)]], {
      fields: ['amount', 'journal_id'],
    });
    expect(payment!.amount).toBe(12.34);
    const [journal] = await erp.read('account.journal', [(payment!.journal_id as [number])[0]], ['type']);
    expect(journal!.type).toBe('bank');
  });

  it("refuses another tenant's quote as not found and records nothing", async () => {
    const q = await quote(k.a);
    const r = await record(k.b, k.b.office, q.id, { method: 'cash', amount_minor: 100 });
    expect(r.status).toBe(404);
    expect(await jobs(q.id)).toHaveLength(0);
    expect((await k.kit.t.db.query('SELECT 1 FROM deposit_payments WHERE quote_id = $1', [q.id])).rows).toHaveLength(0);
  });

  it('names the field of bad input and refuses technicians', async () => {
    const q = await quote(k.a);
    const method = await record(k.a, k.a.office, q.id, { method: 'card', amount_minor: 100 });
    expect(method.status).toBe(422);
    expect(JSON.stringify(method.body)).toContain('method');
    const cents = await record(k.a, k.a.office, q.id, { method: 'cash', amount_minor: 10.5 });
    expect(cents.status).toBe(422);
    expect(JSON.stringify(cents.body)).toContain('amount_minor');
    const tooMuch = await record(k.a, k.a.office, q.id, {
      method: 'cash',
      amount_minor: Math.round(q.total * 100) + 1,
    });
    expect(tooMuch.status).toBe(422);
    expect(JSON.stringify(tooMuch.body)).toContain('amount_minor');
    expect((await record(k.a, k.a.technician, q.id, { method: 'cash', amount_minor: 100 })).status).toBe(403);
    expect(await jobs(q.id)).toHaveLength(0);
  });
});
