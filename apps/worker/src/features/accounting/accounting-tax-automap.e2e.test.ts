/**
 * The invoice sync maps an unmapped ERP tax by rate before holding the invoice, against the local
 * stand-in's TaxRates: a tax of one active rate is mapped (kept on the connection) and the invoice
 * sent with that TaxType; a tax of two equal rates is not guessed, the invoice held with the reason
 * and where the owner chooses.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type AccountingHarness, pushRow, startAccountingHarness } from '../../../test/support/accounting-harness.js';

let h: AccountingHarness;
let tax825: number;
let tax10: number;

beforeAll(async () => {
  h = await startAccountingHarness({ taxRates: { NONE: 0, OUTPUT: 0.1, GSTIMPORT: 0.1, TAX825: 0.0825 } });
  tax825 = await h.erp.create('account.tax', { name: 'Sales tax 8.25%', amount: 8.25, type_tax_use: 'sale' });
  tax10 = await h.erp.create('account.tax', { name: 'GST 10%', amount: 10, type_tax_use: 'sale' });
  await h.configure(1, undefined, { tax_types: {}, no_tax_type: 'NONE' });
  expect((await h.connect()).status).toBe(200);
}, 120_000);
afterAll(async () => h?.close());
beforeEach(() => h.local.advanceTime(61_000));

async function postInvoice(tax: number, customer: string): Promise<number> {
  const partner = await h.erp.create('res.partner', { name: customer, email: `${customer.toLowerCase()}@example.com` });
  const id = await h.erp.create('account.move', {
    move_type: 'out_invoice',
    partner_id: partner,
    invoice_line_ids: [[0, 0, { name: 'Shutters', quantity: 1, price_unit: 1000, tax_ids: [[6, 0, [tax]]] }]],
  });
  await h.erp.call('account.move', 'action_post', [[id]]);
  return id;
}
const push = (id: number) => h.handlers['accounting.push_invoice']!(pushRow(h, id)) as Promise<Record<string, any>>;

describe('the sync maps taxes by rate', () => {
  it('maps a tax of exactly one active rate, keeps it, and sends the invoice with that TaxType', async () => {
    const id = await postInvoice(tax825, 'Mapped');
    expect(await push(id)).toMatchObject({ pushed: true, totalsAgree: true });
    expect((await h.connection())['tax_types']).toEqual({ [String(tax825)]: 'TAX825' });
    const [move] = await h.erp.read('account.move', [id], ['name']);
    const sent = h.local.invoices().find((i) => i['Reference'] === move!['name'])!;
    expect((sent['LineItems'] as Record<string, unknown>[])[0]!['TaxType']).toBe('TAX825');
    expect(sent['Total']).toBe(1082.5);
  });

  it('holds an invoice whose tax matches two rates, saying why and where to choose', async () => {
    const id = await postInvoice(tax10, 'Ambiguous');
    expect(await push(id)).toMatchObject({ pushed: false, reason: 'needs_attention' });
    const [move] = await h.erp.read('account.move', [id], ['name', 'x_acct_sync_issue']);
    expect(move!['x_acct_sync_issue']).toContain('no provider tax type is mapped for GST 10%');
    expect(move!['x_acct_sync_issue']).toContain('Integrations → Accounting → Tax mapping');
    expect(h.local.invoices().some((i) => i['Reference'] === move!['name'])).toBe(false);
    expect((await h.connection())['tax_types']).not.toHaveProperty(String(tax10));
  });
});
