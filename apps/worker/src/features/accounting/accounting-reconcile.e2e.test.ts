/**
 * Accounting that agrees with the provider to the cent, against the strict local stand-in (PGlite,
 * or PostgreSQL with TEST_DATABASE_URL): taxed, discounted, 4-decimal invoices are sent with equal
 * totals; whatever lowers the provider's AmountDue (payments, credit notes, prepayments,
 * overpayments, deleted payments) keeps the ERP's residual equal to it; creates survive lost
 * replies; existing customers are linked; what cannot be settled is shown to the office.
 */
import { TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import { RetryLater } from '@platform/outbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  type AccountingHarness,
  basic,
  pushRow,
  startAccountingHarness,
} from '../../../test/support/accounting-harness.js';

let h: AccountingHarness;
let tax825: number;
let tax5: number;
type Line = { name: string; quantity: number; price_unit: number; discount?: number; taxed?: boolean; tax?: number };

beforeAll(async () => {
  h = await startAccountingHarness({ taxRates: { NONE: 0, OUTPUT: 0.1, TAX825: 0.0825 } });
  tax825 = await h.erp.create('account.tax', { name: 'Sales tax 8.25%', amount: 8.25, type_tax_use: 'sale' });
  tax5 = await h.erp.create('account.tax', { name: 'County tax 5%', amount: 5, type_tax_use: 'sale' });
  await h.configure(1, undefined, { tax_types: { [String(tax825)]: 'TAX825' }, no_tax_type: 'NONE' });
  expect((await h.connect()).status).toBe(200);
}, 120_000);
afterAll(async () => h?.close());
// Each test in a fresh minute of the provider's 60-calls-a-minute limit (our limiter follows its clock).
beforeEach(() => h.local.advanceTime(61_000));

let seq = 0;
async function postInvoice(
  lines: Line[],
  customer = `Customer ${++seq}`,
  email = `c${seq}@example.com`,
): Promise<number> {
  const partner = await h.erp.create('res.partner', { name: customer, email });
  const id = await h.erp.create('account.move', {
    move_type: 'out_invoice',
    partner_id: partner,
    invoice_line_ids: lines.map((l) => [
      0,
      0,
      {
        name: l.name,
        quantity: l.quantity,
        price_unit: l.price_unit,
        discount: l.discount ?? 0,
        tax_ids: [[6, 0, l.tax ? [l.tax] : l.taxed ? [tax825] : []]],
      },
    ]),
  });
  await h.erp.call('account.move', 'action_post', [[id]]);
  return id;
}
const push = (id: number) => h.handlers['accounting.push_invoice']!(pushRow(h, id)) as Promise<Record<string, any>>;
const move = async (id: number) =>
  (
    await h.erp.read(
      'account.move',
      [id],
      [
        'name',
        'amount_untaxed',
        'amount_tax',
        'amount_total',
        'amount_residual',
        'payment_state',
        'x_acct_invoice_id',
        'x_acct_sync_issue',
      ],
    )
  )[0]!;
const provider = (id: string) => h.local.invoices().find((i) => i['InvoiceID'] === id)!;
/** Delivers the provider's webhooks and runs the jobs they queued; the last job's result. */
async function settle(): Promise<Record<string, any>> {
  await h.local.flushWebhooks();
  return (await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK)).at(-1) as Record<string, any>;
}
/** Issue 9's invoice: 2448 untaxed, 1908 of it at 8.25 % → 2605.41. */
const issue9 = () =>
  postInvoice([
    { name: 'Shutters', quantity: 4, price_unit: 477, taxed: true },
    { name: 'Installation', quantity: 1, price_unit: 540 },
  ]);

describe('totals to the cent', () => {
  it('sends a 4-decimal, discounted, taxed invoice whose totals equal the ERP’s', async () => {
    const id = await postInvoice([
      { name: 'Blind cord', quantity: 10, price_unit: 16.9915, discount: 10, taxed: true },
      { name: 'Shutters', quantity: 4, price_unit: 477, taxed: true },
      { name: 'Installation', quantity: 1, price_unit: 540 },
    ]);
    const r = await push(id);
    expect(r).toMatchObject({ pushed: true, created: true, totalsAgree: true });
    const erp = await move(id);
    expect(erp).toMatchObject({
      amount_untaxed: 2600.92,
      amount_tax: 170.03,
      amount_total: 2770.95,
      x_acct_sync_issue: false,
    });
    const inv = provider(r['providerInvoiceId']);
    expect([inv['SubTotal'], inv['TotalTax'], inv['Total']]).toEqual([2600.92, 170.03, 2770.95]);
    expect(
      (inv['LineItems'] as Record<string, unknown>[]).map((l) => [
        l['UnitAmount'],
        l['DiscountRate'],
        l['TaxType'],
        l['LineAmount'],
      ]),
    ).toEqual([
      [16.9915, 10, 'TAX825', 152.92],
      [477, undefined, 'TAX825', 1908],
      [540, undefined, 'NONE', 540],
    ]);
    const put = h.local.requests.find((q) => q.method === 'PUT' && q.path === '/api.xro/2.0/Invoices')!;
    expect(put.query).toContain('unitdp=4');
    expect(put.idempotencyKey).toMatch(/^erp:/);
  });

  it('sends a final invoice that deducts a down payment (negative deposit line) with equal totals', async () => {
    const [dp] = await h.erp.search('product.product', [['name', '=', 'Down payment']], { limit: 1 });
    const partner = await h.erp.create('res.partner', { name: 'Deposit Payer' });
    const id = await h.erp.create('account.move', {
      move_type: 'out_invoice',
      partner_id: partner,
      invoice_line_ids: [
        [0, 0, { name: 'Plantation shutters', quantity: 1, price_unit: 1000, tax_ids: [[6, 0, [tax825]]] }],
        [
          0,
          0,
          { product_id: dp, name: 'Down payment of 2026-01-10', quantity: -1, price_unit: 300, tax_ids: [[6, 0, []]] },
        ],
      ],
    });
    await h.erp.call('account.move', 'action_post', [[id]]);
    const r = await push(id);
    expect(r).toMatchObject({ pushed: true, totalsAgree: true });
    const inv = provider(r['providerInvoiceId']);
    expect(inv['Total']).toBe(782.5);
    expect((inv['LineItems'] as Record<string, unknown>[]).map((l) => [l['AccountCode'], l['LineAmount']])).toEqual([
      ['200', 1000],
      ['835', -300],
    ]);
  });

  it('marks a taxed invoice paid in the ERP when the provider’s AmountDue is paid there (issue 9)', async () => {
    const id = await issue9();
    const { providerInvoiceId } = await push(id);
    expect(provider(providerInvoiceId)['AmountDue']).toBe(2605.41);
    h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 2605.41 });
    expect(await settle()).toMatchObject({ registered: [expect.any(String)], residual: 0, amountDue: 0, agrees: true });
    expect(await move(id)).toMatchObject({ amount_total: 2605.41, amount_residual: 0, payment_state: 'paid' });
  });

  it('does not send an invoice whose tax has no provider tax type; the office sees why on the invoice', async () => {
    const id = await postInvoice([{ name: 'Valance', quantity: 1, price_unit: 80, tax: tax5 }]);
    expect(await push(id)).toMatchObject({ pushed: false, reason: 'needs_attention' });
    expect((await move(id))['x_acct_sync_issue']).toContain('County tax 5%');
    const ref = String((await move(id))['name']);
    expect(h.local.invoices().some((i) => i['Reference'] === ref)).toBe(false);
    expect(await h.services.attention.list(h.tenantId)).toEqual(
      expect.arrayContaining([expect.objectContaining({ erp_id: id, kind: 'unmapped_tax' })]),
    );
  });

  it('flags on the invoice a total that differs (a tax mapped to the wrong provider rate), never passes it silently', async () => {
    const tax7 = await h.erp.create('account.tax', { name: 'City tax 7%', amount: 7, type_tax_use: 'sale' });
    await h.configure(1, undefined, {
      tax_types: { [String(tax825)]: 'TAX825', [String(tax7)]: 'OUTPUT' },
      no_tax_type: 'NONE',
    });
    const id = await postInvoice([{ name: 'Awning', quantity: 1, price_unit: 1000, tax: tax7 }]);
    expect(await push(id)).toMatchObject({ pushed: true, totalsAgree: false });
    expect((await move(id))['x_acct_sync_issue']).toMatch(/1100\.00 differs from the ERP total 1070\.00/);
    expect(await h.services.attention.list(h.tenantId)).toEqual(
      expect.arrayContaining([expect.objectContaining({ erp_id: id, kind: 'total_mismatch' })]),
    );
  });

  it('sends every one of 40 random invoices (4-decimal prices, discounts, taxes) with the ERP’s totals to the cent', async () => {
    let seed = 20261125;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const partner = await h.erp.create('res.partner', { name: 'Random Buyer', email: 'random@example.com' });
    const disagree: string[] = [];
    for (let n = 0; n < 40; n++) {
      if (n % 8 === 0) h.local.advanceTime(61_000);
      const lines = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, i) => [
        0,
        0,
        {
          name: `Item ${i}`,
          quantity: [1, 2, 3, 7, 0.5, 12.5][Math.floor(rnd() * 6)],
          price_unit: Math.round(rnd() * 9_999_999) / 10_000,
          discount: [0, 0, 5, 10, 12.5, 33.33][Math.floor(rnd() * 6)],
          tax_ids: [[6, 0, rnd() < 0.6 ? [tax825] : []]],
        },
      ]);
      const id = await h.erp.create('account.move', {
        move_type: 'out_invoice',
        partner_id: partner,
        invoice_line_ids: lines,
      });
      await h.erp.call('account.move', 'action_post', [[id]]);
      const r = await push(id);
      const erp = await move(id);
      const inv = provider(r['providerInvoiceId']);
      if (!r['totalsAgree'] || inv['Total'] !== erp['amount_total'] || inv['TotalTax'] !== erp['amount_tax'])
        disagree.push(`${erp['name']}: ${inv['Total']} vs ${erp['amount_total']}`);
    }
    expect(disagree).toEqual([]);
  });
});

describe('everything that lowers AmountDue', () => {
  it('keeps an over-payment whole, as Odoo 15 does (outstanding credit), and the residuals still agree', async () => {
    const id = await issue9();
    const { providerInvoiceId } = await push(id);
    // Someone also recorded 100 in the ERP by hand; the customer then paid the full amount at the provider.
    const wizard = await h.erp.create(
      'account.payment.register',
      { amount: 100 },
      { active_model: 'account.move', active_ids: [id] },
    );
    await h.erp.call('account.payment.register', 'action_create_payments', [[wizard]]);
    h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 2605.41 });
    expect(await settle()).toMatchObject({ residual: 0, amountDue: 0, agrees: true });
    expect(await move(id)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
    const amounts = (
      await h.erp.searchRead('account.payment', [['reconciled_invoice_ids', 'in', [id]]], { fields: ['amount'] })
    ).map((p) => p['amount']);
    expect(amounts.sort((a, b) => Number(a) - Number(b))).toEqual([100, 2605.41]);
  });

  it('a credit note plus a partial payment closes the invoice', async () => {
    const id = await issue9();
    const { providerInvoiceId } = await push(id);
    const cn = h.local.recordCredit({ invoiceId: providerInvoiceId, kind: 'credit_note', amount: 605.41 });
    expect(await settle()).toMatchObject({ residual: 2000, amountDue: 2000, agrees: true });
    expect(await move(id)).toMatchObject({ amount_residual: 2000, payment_state: 'partial' });
    h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 2000 });
    expect(await settle()).toMatchObject({ residual: 0, agrees: true });
    expect(await move(id)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
    const refunds = await h.erp.searchRead('account.move', [['reversed_entry_id', '=', id]], {
      fields: ['move_type', 'state', 'amount_total', 'ref'],
    });
    expect(refunds).toEqual([
      expect.objectContaining({
        move_type: 'out_refund',
        state: 'posted',
        amount_total: 605.41,
        ref: expect.stringContaining(cn.id),
      }),
    ]);
    // The allocation removed at the provider: the ERP credit note is cancelled and the invoice owes it again.
    expect(h.local.removeAllocation({ id: cn.id })).toEqual({ status: 'AUTHORISED', amountDue: 605.41 });
    expect(await settle()).toMatchObject({ undone: [expect.stringContaining(cn.id)], residual: 605.41, agrees: true });
    expect(await move(id)).toMatchObject({ amount_residual: 605.41, payment_state: 'partial' });
  });

  it('registers prepayments and overpayments applied to the invoice as payments, once', async () => {
    const id = await issue9();
    const { providerInvoiceId } = await push(id);
    h.local.recordCredit({ invoiceId: providerInvoiceId, kind: 'prepayment', amount: 500 });
    h.local.recordCredit({ invoiceId: providerInvoiceId, kind: 'overpayment', amount: 105.41 });
    h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 2000 });
    expect(await settle()).toMatchObject({ residual: 0, amountDue: 0, agrees: true });
    await h.local.redeliverWebhook(undefined, 2);
    await settle();
    const amounts = (
      await h.erp.searchRead('account.payment', [['reconciled_invoice_ids', 'in', [id]]], { fields: ['amount'] })
    ).map((p) => p['amount']);
    expect(amounts.sort((a, b) => Number(a) - Number(b))).toEqual([105.41, 500, 2000]);
    expect(await move(id)).toMatchObject({ payment_state: 'paid' });
  });

  it('a payment deleted at the provider reopens the ERP invoice', async () => {
    const id = await issue9();
    const { providerInvoiceId } = await push(id);
    const paid = h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 2605.41 });
    await settle();
    expect(await move(id)).toMatchObject({ payment_state: 'paid' });
    h.local.deletePayment({ paymentId: paid.paymentId });
    expect(await settle()).toMatchObject({
      undone: [paid.paymentId],
      residual: 2605.41,
      amountDue: 2605.41,
      agrees: true,
    });
    expect(await move(id)).toMatchObject({ amount_residual: 2605.41, payment_state: 'not_paid' });
    const [p] = await h.erp.searchRead('account.payment', [['ref', '=', `Accounting payment ${paid.paymentId}`]], {
      fields: ['state'],
    });
    expect(p).toMatchObject({ state: 'cancel' });
  });
});

describe('creates and contacts', () => {
  it('a retried create after a lost reply makes one contact and one invoice', async () => {
    const id = await postInvoice(
      [{ name: 'Roman shade', quantity: 2, price_unit: 199.99, taxed: true }],
      'Lost Reply Ltd',
    );
    h.local.dropNextReply('PUT', '/api.xro/2.0/Contacts');
    await expect(push(id)).rejects.toMatchObject({ kind: 'network' });
    h.local.dropNextReply('PUT', '/api.xro/2.0/Invoices');
    await expect(push(id)).rejects.toMatchObject({ kind: 'network' });
    expect(await push(id)).toMatchObject({ pushed: true, totalsAgree: true });
    expect(h.local.contacts().filter((c) => c['Name'] === 'Lost Reply Ltd')).toHaveLength(1);
    const ref = String((await move(id))['name']);
    expect(h.local.invoices().filter((i) => i['Reference'] === ref)).toHaveLength(1);
  });

  it('two workers creating the same invoice at once make one contact and one invoice (same Idempotency-Key)', async () => {
    const id = await postInvoice([{ name: 'Sheer', quantity: 1, price_unit: 64.5 }], 'Twin Workers Inc');
    const before = h.local.requests.length;
    const results = await Promise.all([push(id), push(id)]);
    expect(new Set(results.map((r) => r['providerInvoiceId'])).size).toBe(1);
    const puts = h.local.requests.slice(before).filter((q) => q.method === 'PUT');
    // Both workers usually miss the lookup and both PUT: the shared key makes the second get the first's answer.
    for (const path of ['/api.xro/2.0/Contacts', '/api.xro/2.0/Invoices']) {
      const keys = puts.filter((q) => q.path === path).map((q) => q.idempotencyKey);
      expect(keys.length).toBeGreaterThanOrEqual(1);
      expect(new Set(keys)).toEqual(new Set([expect.stringMatching(/^erp:/)]));
    }
    expect(h.local.contacts().filter((c) => c['Name'] === 'Twin Workers Inc')).toHaveLength(1);
    const ref = String((await move(id))['name']);
    expect(h.local.invoices().filter((i) => i['Reference'] === ref)).toHaveLength(1);
  });

  it('links a customer who already exists at the provider under the same name, instead of failing', async () => {
    const existing = h.local.addContact({ name: 'Existing Customer', email: 'existing@example.com' });
    const id = await postInvoice(
      [{ name: 'Shutters', quantity: 1, price_unit: 300 }],
      'Existing Customer',
      'existing@example.com',
    );
    const r = await push(id);
    expect(r).toMatchObject({ pushed: true });
    expect((provider(r['providerInvoiceId'])['Contact'] as Record<string, unknown>)['ContactID']).toBe(existing);
    expect(h.local.contacts().filter((c) => c['Name'] === 'Existing Customer')).toHaveLength(1);
    const link = await h.t.db.query<{ matched_by: string }>(
      'SELECT matched_by FROM accounting_contacts WHERE provider_contact_id = $1',
      [existing],
    );
    expect(link.rows).toEqual([{ matched_by: 'name' }]);
  });

  it('two customers with the same name both sync: the second gets a distinct contact at the provider', async () => {
    const first = await postInvoice(
      [{ name: 'Blinds', quantity: 1, price_unit: 100 }],
      'John Smith',
      'john@one.example',
    );
    const second = await postInvoice(
      [{ name: 'Shades', quantity: 1, price_unit: 200 }],
      'John Smith',
      'john@two.example',
    );
    const a = await push(first);
    const b = await push(second);
    expect([a, b]).toEqual([expect.objectContaining({ pushed: true }), expect.objectContaining({ pushed: true })]);
    const contactOf = (r: Record<string, any>) =>
      provider(r['providerInvoiceId'])['Contact'] as Record<string, unknown>;
    const smiths = h.local.contacts().filter((c) => String(c['Name']).startsWith('John Smith'));
    expect(smiths).toHaveLength(2);
    expect(contactOf(a)['ContactID']).not.toBe(contactOf(b)['ContactID']);
    const secondPartner = (await h.erp.read('account.move', [second], ['partner_id']))[0]!['partner_id'] as [number];
    expect(smiths.map((c) => c['Name'])).toContain(`John Smith (#${secondPartner[0]})`);
    for (const id of [first, second]) expect((await move(id))['x_acct_sync_issue']).toBeFalsy();
  });

  it('a name with a trailing space finds the customer the provider keeps under the trimmed name', async () => {
    const existing = h.local.addContact({ name: 'Rita Trail', email: 'rita@example.com' });
    const id = await postInvoice(
      [{ name: 'Shutters', quantity: 1, price_unit: 300 }],
      'Rita Trail ',
      'rita@example.com',
    );
    expect(await push(id)).toMatchObject({ pushed: true });
    const r = await move(id);
    expect((provider(String(r['x_acct_invoice_id']))['Contact'] as Record<string, unknown>)['ContactID']).toBe(
      existing,
    );
  });

  it('an invoice the provider refuses is shown to the office on the invoice, not left in a dead letter', async () => {
    const bad = await h.erp.create('account.tax', { name: 'Retired tax 7%', amount: 7, type_tax_use: 'sale' });
    await h.t.db.query(
      `UPDATE accounting_connections SET tax_types = tax_types || jsonb_build_object($1::text, 'RETIRED')`,
      [String(bad)],
    );
    const id = await postInvoice([{ name: 'Blinds', quantity: 1, price_unit: 100, tax: bad }]);
    expect(await push(id)).toMatchObject({ pushed: false, reason: 'needs_attention' });
    expect((await move(id))['x_acct_sync_issue']).toContain("TaxType code 'RETIRED'");
    expect((await h.services.attention.list(h.tenantId)).filter((a) => a.erp_id === id)).toEqual([
      expect.objectContaining({ kind: 'provider_refused' }),
    ]);
  });

  it('shows an ambiguous customer to the office and does not retry it forever', async () => {
    h.local.addContact({ name: 'Pat Lee', email: 'pat@old.example' });
    const id = await postInvoice([{ name: 'Blinds', quantity: 1, price_unit: 120 }], 'Pat Lee', 'pat@new.example');
    for (let i = 0; i < 2; i++) expect(await push(id)).toMatchObject({ pushed: false, reason: 'needs_attention' });
    expect((await move(id))['x_acct_sync_issue']).toContain('Pat Lee');
    expect(h.local.contacts().filter((c) => c['Name'] === 'Pat Lee')).toHaveLength(1);
    expect((await h.services.attention.list(h.tenantId)).filter((a) => a.erp_id === id)).toEqual([
      expect.objectContaining({ kind: 'ambiguous_contact' }),
    ]);
    // The office's view of the connection lists it.
    const status = await h.app.inject({
      method: 'GET',
      url: '/acct/status?company=1',
      headers: { authorization: basic() },
    });
    expect(status.json()['needs_attention']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ erp_id: id, kind: 'ambiguous_contact', detail: expect.stringContaining('Pat Lee') }),
      ]),
    );
  });
});

describe('scopes', () => {
  it('a refused scope shows needs-reconnect, and jobs wait for the reconnect', async () => {
    h.local.setConsentScopes(['offline_access', 'accounting.contacts', 'accounting.invoices']);
    await h.app.inject({ method: 'POST', url: '/acct/disconnect?company=1', headers: { authorization: basic() } });
    const page = await h.connect();
    expect(page.body).toContain('accounting.payments');
    const c = await h.connection();
    expect(c).toMatchObject({
      status: 'needs_reconnect',
      granted_scopes: 'offline_access accounting.contacts accounting.invoices',
    });
    expect(c['status_detail']).toContain('accounting.payments');
    const id = await postInvoice([{ name: 'Blinds', quantity: 1, price_unit: 10 }]);
    await expect(push(id)).rejects.toBeInstanceOf(RetryLater);
    h.local.setConsentScopes(undefined);
    await h.connect();
    expect(await h.connection()).toMatchObject({ status: 'connected', status_detail: null });
    expect(await push(id)).toMatchObject({ pushed: true });
  });

  it('an organisation disconnected at the provider (403 on a call) shows needs-reconnect instead of failing', async () => {
    h.local.disconnectOrganisation();
    const id = await postInvoice([{ name: 'Blinds', quantity: 1, price_unit: 10 }]);
    await expect(push(id)).rejects.toBeInstanceOf(RetryLater);
    const c = await h.connection();
    expect(c['status']).toBe('needs_reconnect');
    expect(c['status_detail']).toMatch(/disconnect, then connect again/i);
  });
});
