/**
 * Money made in the ERP reaches the accounting provider (the local Xero-protocol stand-in): a deposit
 * paid on the ERP invoice lowers the provider's AmountDue by exactly it, the balance paid closes it
 * (AmountDue 0, PAID), a credit note reversing part of the invoice is allocated to it, a refund on a
 * paid invoice is a refund paid from the credit note; after each, the ERP residual equals AmountDue
 * (the inbound sync's own check agrees) and the provider's notices of our own money bring nothing
 * back into the ERP. The change feed hears a posted payment, and the reconciliation finds one whose
 * change was missed.
 */
import { recordDepositInErp } from '@platform/app-control/features/payments/deposit-erp.js';
import { TOPIC_ACCOUNTING_PUSH_MONEY, TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import type { AccountingRow } from '@platform/integrations';
import type { OutboxRow } from '@platform/outbox';
import { createXeroAccountingClient } from '@platform/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type AccountingHarness,
  ERP_DB,
  postInvoice,
  pushRow,
  startAccountingHarness,
} from '../../../test/support/accounting-harness.js';
import { ChangeFeedService } from '../change-feed/change-feed.service.js';
import { WATCHED_MODELS } from '../change-feed/watched-models.js';

let h: AccountingHarness;

beforeAll(async () => {
  h = await startAccountingHarness();
  await h.configure();
  expect((await h.connect()).status).toBe(200);
}, 120_000);
afterAll(async () => h?.close());

/** The job the change feed queues for a posted payment or credit note. */
const moneyRow = (model: 'account.payment' | 'account.move', recordId: number): OutboxRow => {
  const row = pushRow(h, recordId);
  return {
    ...row,
    topic: TOPIC_ACCOUNTING_PUSH_MONEY,
    payload: { ...(row.payload as { event: object }).event, model, recordId },
  } as OutboxRow;
};
const pushMoney = (model: 'account.payment' | 'account.move', id: number) =>
  h.handlers[TOPIC_ACCOUNTING_PUSH_MONEY]!(moneyRow(model, id)) as Promise<Record<string, unknown>>;
const pushInvoice = async (id: number) =>
  ((await h.handlers['accounting.push_invoice']!(pushRow(h, id))) as { providerInvoiceId: string }).providerInvoiceId;
const atProvider = (id: string) => h.local.invoices().find((i) => i['InvoiceID'] === id)!;
const residual = async (id: number) =>
  Number((await h.erp.read('account.move', [id], ['amount_residual']))[0]!['amount_residual']);
const paymentsOf = (invoiceId: number) =>
  h.erp.searchRead('account.payment', [['reconciled_invoice_ids', 'in', [invoiceId]]], { fields: ['amount', 'ref'] });

/** The office's "Register Payment" in the ERP (as the deposit and the invoicing features do). */
async function payInErp(invoiceId: number, amount: number, memo: string): Promise<number> {
  const [bank] = await h.erp.search('account.journal', [['type', '=', 'bank']], { limit: 1 });
  const wizard = await h.erp.create(
    'account.payment.register',
    { amount, payment_date: '2026-11-27', communication: memo, journal_id: bank },
    { active_model: 'account.move', active_ids: [invoiceId] },
  );
  await h.erp.call('account.payment.register', 'action_create_payments', [[wizard]]);
  return (await h.erp.search('account.payment', [['ref', '=', memo]], { limit: 1 }))[0]!;
}

/** The provider's notices of what we just did, handled as the webhook jobs: nothing comes back, and the residuals agree. */
async function providerNoticesAgree(): Promise<void> {
  await h.local.flushWebhooks();
  const results = (await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK)) as Record<string, unknown>[];
  expect(results.length).toBeGreaterThan(0);
  for (const r of results) expect(r).toMatchObject({ registered: [], agrees: true });
}

describe('ERP payments reach the accounting provider', { timeout: 60_000 }, () => {
  it('a deposit paid in the ERP lowers AmountDue by exactly it; the balance paid leaves 0 and PAID', async () => {
    const invoiceId = await postInvoice(h, 'Dana Deposit'); // 460.00
    const providerId = await pushInvoice(invoiceId);
    const deposit = await payInErp(invoiceId, 230.05, 'platform-deposit:quote-1');

    const sent = await pushMoney('account.payment', deposit);
    expect(sent).toMatchObject({ pushed: true, kind: 'payment' });
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 229.95, AmountPaid: 230.05, Status: 'AUTHORISED' });
    const [p] = (atProvider(providerId)['Payments'] as Record<string, unknown>[]) ?? [];
    expect(p).toMatchObject({ Amount: 230.05, Reference: expect.stringMatching(/\[erp-payment-\d+\]$/) });
    expect(await residual(invoiceId)).toBe(229.95);
    await providerNoticesAgree();

    const balance = await payInErp(invoiceId, 229.95, 'platform-balance:invoice-1');
    expect(await pushMoney('account.payment', balance)).toMatchObject({ pushed: true });
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 0, Status: 'PAID' });
    expect(await residual(invoiceId)).toBe(0);
    await providerNoticesAgree();
    // Sent once: the same change again sends nothing, and the ERP still holds its two payments only.
    expect(await pushMoney('account.payment', deposit)).toMatchObject({ pushed: false, reason: 'already_sent' });
    expect(await paymentsOf(invoiceId)).toHaveLength(2);
    expect((atProvider(providerId)['Payments'] as unknown[]).length).toBe(2);
  });

  it("the card deposit's down-payment invoice (the deposit job) is paid at the provider too", async () => {
    const partner = await h.erp.create('res.partner', { name: 'Priya Card' });
    const product = await h.erp.create('product.product', {
      name: 'Wood blind',
      type: 'service',
      invoice_policy: 'order',
    });
    const order = await h.erp.create('sale.order', {
      partner_id: partner,
      order_line: [[0, 0, { product_id: product, product_uom_qty: 3, price_unit: 180 }]],
    });
    const made = await recordDepositInErp(h.erp, {
      saleOrderId: order,
      quoteId: '00000000-0000-4000-8000-0000000000e1',
      amountMinor: 27_000,
      currency: 'USD',
      method: 'card',
    });
    const providerId = await pushInvoice(made.invoiceId);
    expect(await pushMoney('account.payment', made.paymentId)).toMatchObject({ pushed: true });
    expect(atProvider(providerId)).toMatchObject({ Total: 270, AmountDue: 0, Status: 'PAID' });
    await providerNoticesAgree();
  });

  it('waits for its invoice: a payment before the invoice is at the provider is retried, not lost', async () => {
    const invoiceId = await postInvoice(h, 'Early Payer');
    const pay = await payInErp(invoiceId, 100, 'platform-early:1');
    await expect(pushMoney('account.payment', pay)).rejects.toMatchObject({ name: 'RetryLater' });
    const providerId = await pushInvoice(invoiceId);
    expect(await pushMoney('account.payment', pay)).toMatchObject({ pushed: true });
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 360 });
    await providerNoticesAgree();
  });

  it('a payment made at the provider and registered in the ERP is not echoed back', async () => {
    const invoiceId = await postInvoice(h, 'Paid At Xero');
    const providerId = await pushInvoice(invoiceId);
    h.local.recordPayment({ invoiceId: providerId, amount: 60 });
    await h.local.flushWebhooks();
    expect(await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK)).toEqual([
      expect.objectContaining({ registered: [expect.any(String)] }),
    ]);
    const [registered] = await paymentsOf(invoiceId);
    expect(registered!['ref']).toMatch(/^Accounting payment /);
    expect(await pushMoney('account.payment', registered!.id)).toMatchObject({
      pushed: false,
      reason: 'from_provider',
    });
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 400, AmountPaid: 60 });
  });
});

describe('ERP credit notes and refunds reach the accounting provider', { timeout: 60_000 }, () => {
  /** An ERP credit note of `amount` (no tax) reversing the invoice, posted. */
  async function creditNote(invoiceId: number, amount: number): Promise<number> {
    const [inv] = await h.erp.read('account.move', [invoiceId], ['partner_id']);
    const id = await h.erp.create('account.move', {
      move_type: 'out_refund',
      partner_id: (inv!['partner_id'] as [number, string])[0],
      reversed_entry_id: invoiceId,
      invoice_date: '2026-11-28',
      invoice_line_ids: [[0, 0, { name: 'Refund: one blind', quantity: 1, price_unit: amount, tax_ids: [[6, 0, []]] }]],
    });
    await h.erp.call('account.move', 'action_post', [[id]]);
    return id;
  }

  it('a partial refund by credit note leaves the ERP residual equal to the provider AmountDue', async () => {
    const invoiceId = await postInvoice(h, 'Rita Refund');
    const providerId = await pushInvoice(invoiceId);
    await pushMoney('account.payment', await payInErp(invoiceId, 200, 'platform-deposit:quote-r'));
    const cn = await creditNote(invoiceId, 45.5);

    expect(await pushMoney('account.move', cn)).toMatchObject({ pushed: true, kind: 'credit_note', allocated: 45.5 });
    const inv = atProvider(providerId);
    expect(inv).toMatchObject({ AmountDue: 214.5, AmountCredited: 45.5 });
    expect(await residual(invoiceId)).toBe(214.5);
    await providerNoticesAgree();
    // The credit note is sent and allocated once, and the ERP has no second credit note from the notices.
    expect(await pushMoney('account.move', cn)).toMatchObject({ pushed: false, reason: 'already_sent' });
    expect(await h.erp.search('account.move', [['reversed_entry_id', '=', invoiceId]])).toEqual([cn]);
    expect((atProvider(providerId)['CreditNotes'] as unknown[]).length).toBe(1);
  });

  it('a credit note on a paid invoice keeps its credit at the provider (nothing due to allocate); both still agree', async () => {
    const invoiceId = await postInvoice(h, 'Paula Paid');
    const providerId = await pushInvoice(invoiceId);
    await pushMoney('account.payment', await payInErp(invoiceId, 460, 'platform-paid:p'));
    const cn = await creditNote(invoiceId, 120);
    const sent = await pushMoney('account.move', cn);
    expect(sent).toMatchObject({ pushed: true, kind: 'credit_note', allocated: 0 });
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 0, Status: 'PAID', CreditNotes: [] });
    expect(await residual(invoiceId)).toBe(0);
    await providerNoticesAgree();
  });
});

describe('a refund paid from a credit note at the provider', { timeout: 60_000 }, () => {
  it('an outbound customer payment reconciled with it becomes a refund payment on it (ARCREDITPAYMENT)', async () => {
    // The embedded ERP counts a credit note reversing an invoice as settled by it, so it cannot take a
    // refund payment: here the credit note stands alone in the ERP and was sent to the provider before.
    const invoiceId = await postInvoice(h, 'Rex Refund');
    const providerInvoiceId = await pushInvoice(invoiceId);
    const contactId = (atProvider(providerInvoiceId)['Contact'] as { ContactID: string }).ContactID;
    const [inv] = await h.erp.read('account.move', [invoiceId], ['partner_id']);
    const cn = await h.erp.create('account.move', {
      move_type: 'out_refund',
      partner_id: (inv!['partner_id'] as [number, string])[0],
      invoice_line_ids: [[0, 0, { name: 'Goodwill', quantity: 1, price_unit: 50, tax_ids: [[6, 0, []]] }]],
    });
    await h.erp.call('account.move', 'action_post', [[cn]]);
    const row = (
      await h.t.db.query<AccountingRow>('SELECT * FROM accounting_connections WHERE tenant_id = $1', [h.tenantId])
    ).rows[0]!;
    const api = createXeroAccountingClient({ apiUrl: h.local.url });
    const auth = await h.services.tokens.auth(row);
    const note = await api.createCreditNote(auth, {
      contactId,
      reference: 'RINV/goodwill',
      date: '2026-11-28',
      lineAmountTypes: 'Exclusive',
      lines: [{ description: 'Goodwill', quantity: 1, unitAmount: 50, accountCode: '200', taxType: 'NONE' }],
    });
    await h.t.db.query(
      `INSERT INTO accounting_erp_money (tenant_id, erp_db, erp_model, erp_id, kind, provider_target_id, amount, provider_id, allocated_amount, allocated_at)
       VALUES ($1, $2, 'account.move', $3, 'credit_note', $4, 50, $5, 0, now())`,
      [h.tenantId, ERP_DB, cn, providerInvoiceId, note.creditNoteId],
    );
    const refund = await payInErp(cn, 50, 'platform-refund:goodwill');
    expect((await h.erp.read('account.payment', [refund], ['payment_type']))[0]).toMatchObject({
      payment_type: 'outbound',
    });

    expect(await pushMoney('account.payment', refund)).toMatchObject({ pushed: true, kind: 'refund' });
    const back = await api.getCreditNote(auth, note.creditNoteId);
    expect(back).toMatchObject({ remainingCredit: 0, status: 'PAID', payments: [{ amount: 50 }] });
    expect(await pushMoney('account.payment', refund)).toMatchObject({ pushed: false, reason: 'already_sent' });
  });
});

describe('how a change reaches the push', { timeout: 60_000 }, () => {
  it('the change feed hears a posted customer payment once, as the push job', async () => {
    const feed = new ChangeFeedService(h.t.db, { defaultErpDb: ERP_DB, erpFor: () => h.erp });
    const w = WATCHED_MODELS.find((m) => m.model === 'account.payment')!;
    const key = { tenantId: h.tenantId, erpDb: ERP_DB, model: w.feed ?? w.model };
    await feed.pollModel(key, w, h.erp); // the baseline
    const invoiceId = await postInvoice(h, 'Fed Payment');
    const pay = await payInErp(invoiceId, 10, 'platform-feed:1');
    expect(await feed.pollModel(key, w, h.erp)).toBe(1);
    expect(await feed.pollModel(key, w, h.erp)).toBe(0);
    const rows = (
      await h.t.db.query<OutboxRow>(`SELECT * FROM outbox WHERE topic = $1 AND status = 'pending'`, [
        TOPIC_ACCOUNTING_PUSH_MONEY,
      ])
    ).rows;
    expect(rows.map((r) => (r.payload as { recordId: number }).recordId)).toEqual([pay]);
    await h.t.db.query(`UPDATE outbox SET status = 'done' WHERE topic = $1`, [TOPIC_ACCOUNTING_PUSH_MONEY]);
  });

  it('the reconciliation queues the push of a payment whose change was missed', async () => {
    h.local.advanceTime(61_000); // a fresh minute of the provider's 60 calls
    const invoiceId = await postInvoice(h, 'Missed Change');
    const providerId = await pushInvoice(invoiceId);
    const pay = await payInErp(invoiceId, 75, 'platform-missed:1');
    h.local.advanceTime(61_000); // and another: the pass reads every synced invoice
    const r = await h.services.audit.auditTenant(h.tenantId, h.erp, 'pass-1');
    expect(r).toMatchObject({ pushQueued: [`account.payment:${pay}`], failed: [] });
    expect(await h.runJobs(TOPIC_ACCOUNTING_PUSH_MONEY)).toEqual([expect.objectContaining({ pushed: true })]);
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 385 });
    await h.t.db.query(`UPDATE outbox SET status = 'done' WHERE topic = $1`, [TOPIC_ACCOUNTING_WEBHOOK]);
    h.local.advanceTime(61_000);
    expect(await h.services.audit.auditTenant(h.tenantId, h.erp, 'pass-2')).toMatchObject({
      pushQueued: [],
      queued: [],
    });
  });
});
