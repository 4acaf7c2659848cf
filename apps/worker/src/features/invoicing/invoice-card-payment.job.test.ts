/**
 * The card payment of an invoice registered in the ERP by the worker: the invoice's residual drops by
 * the amount, once; a retried job after a lost ERP reply (the worker killed between the write and its
 * mark looks the same) finds the payment by its memo instead of registering a second.
 */
import { TOPIC_INVOICE_CARD_PAYMENT } from '@platform/contracts';
import { createOdooErp, type Erp } from '@platform/erp';
import {
  invoiceOrder,
  odooCall,
  type ReplyDroppingProxy,
  startReplyDroppingProxy,
  startTestErp,
  type TestErp,
} from '@platform/erp-embedded/testing';
import type { OutboxRow } from '@platform/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { invoiceCardPaymentHandler } from './invoice-card-payment.job.js';

let erp: TestErp;
let proxy: ReplyDroppingProxy;
let viaProxy: Erp;

beforeAll(async () => {
  erp = await startTestErp();
  proxy = await startReplyDroppingProxy(erp.url);
  viaProxy = createOdooErp({ url: proxy.url, db: erp.dbName, login: 'admin', secret: erp.apiKey, timeoutMs: 20_000 });
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await erp?.close();
});

async function postedInvoice(): Promise<number> {
  const partner = await erp.erp.create('res.partner', { name: 'Card Payer', email: 'payer@example.com' });
  const order = await erp.erp.create('sale.order', {
    partner_id: partner,
    order_line: [[0, 0, { name: 'Roller shade', price_unit: 250, product_uom_qty: 2 }]],
  });
  return invoiceOrder(erp.erp, order);
}

const row = (invoiceId: number, pi: string, amountMinor: number): OutboxRow<typeof TOPIC_INVOICE_CARD_PAYMENT> =>
  ({
    id: 1,
    tenant_id: '00000000-0000-4000-8000-000000000001',
    topic: TOPIC_INVOICE_CARD_PAYMENT,
    payload: { invoiceId, amountMinor, currency: 'USD', paymentIntentId: pi, sessionId: `cs_test_${pi}` },
  }) as unknown as OutboxRow<typeof TOPIC_INVOICE_CARD_PAYMENT>;

const paymentsOf = (invoiceId: number) =>
  erp.erp.searchRead('account.payment', [['reconciled_invoice_ids', 'in', [invoiceId]]], { fields: ['amount', 'ref'] });

describe('a card payment of an invoice', { timeout: 60_000 }, () => {
  it('registers the amount on the ERP invoice once, however often the job runs', async () => {
    const id = await postedInvoice();
    const handle = invoiceCardPaymentHandler(() => erp.erp);
    await handle(row(id, 'pi_once', 20_000));
    await handle(row(id, 'pi_once', 20_000));
    expect(await paymentsOf(id)).toEqual([expect.objectContaining({ amount: 200, ref: 'Card payment pi_once' })]);
    const [m] = await erp.erp.read('account.move', [id], ['amount_residual', 'amount_total']);
    expect(Number(m!.amount_residual)).toBeCloseTo(Number(m!.amount_total) - 200, 2);
  });

  it('leaves one payment when the reply of the ERP write was lost and the job ran again', async () => {
    const id = await postedInvoice();
    const [m] = await erp.erp.read('account.move', [id], ['amount_residual']);
    const residualMinor = Math.round(Number(m!.amount_residual) * 100);
    const handle = invoiceCardPaymentHandler(() => viaProxy);
    proxy.dropNext(odooCall('account.payment.register', 'action_create_payments'));
    await expect(handle(row(id, 'pi_lost', residualMinor))).rejects.toBeDefined();
    expect(proxy.dropped.at(-1)?.upstreamStatus).toBe(200);
    await handle(row(id, 'pi_lost', residualMinor));
    expect(await paymentsOf(id)).toHaveLength(1);
    expect((await erp.erp.read('account.move', [id], ['payment_state']))[0]).toMatchObject({ payment_state: 'paid' });
  });
});
