/**
 * The deposit's down-payment invoice in the accounting system: the control plane's deposit job
 * (recordDepositInErp: the order confirmed, the down payment invoiced, posted and paid in the ERP)
 * leaves an invoice the worker's push sends to the local Xero-protocol provider with the deposit's
 * amount to the cent, on the Deposit account code. The ERP payment is not sent to the provider (the
 * accounting sync brings the provider's payments into the ERP, not the other way: docs/payments.md).
 */
import { recordDepositInErp } from '@platform/app-control/features/payments/deposit-erp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AccountingHarness, pushRow, startAccountingHarness } from '../../../test/support/accounting-harness.js';

let h: AccountingHarness;

beforeAll(async () => {
  h = await startAccountingHarness();
  await h.configure();
  expect((await h.connect()).status).toBe(200);
}, 120_000);
afterAll(async () => h?.close());

/** A quote of three windows with 8.25 % tax, as the control plane makes it. */
async function quoteOrder(): Promise<{ id: number; total: number }> {
  const tax = await h.erp.create('account.tax', {
    name: 'State 8.25%',
    amount: 8.25,
    amount_type: 'percent',
    type_tax_use: 'sale',
  });
  const partner = await h.erp.create('res.partner', { name: 'Priya Raman', email: 'priya@example.com' });
  const product = await h.erp.create('product.product', {
    name: 'Wood blind',
    type: 'service',
    invoice_policy: 'order',
    list_price: 0,
  });
  const line = (name: string, price: number) => [
    0,
    0,
    { product_id: product, name, product_uom_qty: 1, price_unit: price, tax_id: [[6, 0, [tax]]] },
  ];
  const id = await h.erp.create('sale.order', {
    partner_id: partner,
    order_line: [line('Office', 214.5), line('Kitchen', 187.25), line('Den', 149.99)],
  });
  const [o] = await h.erp.read('sale.order', [id], ['amount_total', 'state']);
  expect(o!.state).not.toBe('sale');
  return { id, total: Number(o!.amount_total) };
}

describe('a paid deposit reaches the accounting system', () => {
  it('as the down-payment invoice, for the deposit to the cent', async () => {
    const order = await quoteOrder();
    // 50 % of the total with tax, rounded half up to the cent (deposit-amount.ts).
    const deposit = Math.floor((Math.round(order.total * 100) * 50 + 50) / 100);
    const made = await recordDepositInErp(h.erp, {
      saleOrderId: order.id,
      quoteId: '00000000-0000-4000-8000-0000000000d1',
      amountMinor: deposit,
      currency: 'USD',
      method: 'card',
    });
    const [o] = await h.erp.read('sale.order', [order.id], ['state']);
    expect(o!.state).toBe('sale');
    const [inv] = await h.erp.read('account.move', [made.invoiceId], ['state', 'amount_total', 'payment_state']);
    expect(inv).toMatchObject({ state: 'posted', payment_state: 'paid' });
    expect(Math.round(Number(inv!.amount_total) * 100)).toBe(deposit);

    const pushed = (await h.handlers['accounting.push_invoice']!(pushRow(h, made.invoiceId))) as {
      pushed: boolean;
      providerInvoiceId: string;
    };
    expect(pushed.pushed).toBe(true);
    const at = h.local.invoices().find((i) => i['InvoiceID'] === pushed.providerInvoiceId)!;
    expect(Math.round(Number(at['Total']) * 100)).toBe(deposit);
    const lines = at['LineItems'] as Record<string, unknown>[];
    expect(lines.map((l) => l['AccountCode'])).toEqual(['835']);
  });
});
