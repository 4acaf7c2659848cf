/**
 * ERP money sent to the accounting provider survives a lost reply and two workers: the provider
 * (the local Xero-protocol stand-in) handles the create and the connection is cut before its
 * answer; the retried job sends the same Idempotency-Key and gets the first answer, so the provider
 * holds one payment, one credit note and one allocation. Two workers running the same job at once
 * make one payment: the second finds the row leased (RetryLater) or already sent.
 */
import { TOPIC_ACCOUNTING_PUSH_MONEY } from '@platform/contracts';
import type { OutboxRow } from '@platform/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type AccountingHarness,
  postInvoice,
  pushRow,
  startAccountingHarness,
} from '../../../test/support/accounting-harness.js';

let h: AccountingHarness;

beforeAll(async () => {
  h = await startAccountingHarness();
  await h.configure();
  expect((await h.connect()).status).toBe(200);
}, 120_000);
afterAll(async () => h?.close());

const pushMoney = (model: 'account.payment' | 'account.move', recordId: number) => {
  const row = pushRow(h, recordId);
  const job = {
    ...row,
    topic: TOPIC_ACCOUNTING_PUSH_MONEY,
    payload: { ...(row.payload as { event: object }).event, model, recordId },
  };
  return h.handlers[TOPIC_ACCOUNTING_PUSH_MONEY]!(job as OutboxRow) as Promise<Record<string, unknown>>;
};
const pushInvoice = async (id: number) =>
  ((await h.handlers['accounting.push_invoice']!(pushRow(h, id))) as { providerInvoiceId: string }).providerInvoiceId;
const atProvider = (id: string) => h.local.invoices().find((i) => i['InvoiceID'] === id)!;

async function payInErp(invoiceId: number, amount: number, memo: string): Promise<number> {
  const wizard = await h.erp.create(
    'account.payment.register',
    { amount, communication: memo },
    { active_model: 'account.move', active_ids: [invoiceId] },
  );
  await h.erp.call('account.payment.register', 'action_create_payments', [[wizard]]);
  return (await h.erp.search('account.payment', [['ref', '=', memo]], { limit: 1 }))[0]!;
}

describe('ERP money sent to the provider with its reply lost', { timeout: 60_000 }, () => {
  it('a payment: the retry gets the first answer; the provider holds one payment', async () => {
    const invoiceId = await postInvoice(h, 'Lost Payment');
    const providerId = await pushInvoice(invoiceId);
    const pay = await payInErp(invoiceId, 125, 'platform-lost:1');
    h.local.dropNextReply('PUT', '/api.xro/2.0/Payments');
    await expect(pushMoney('account.payment', pay)).rejects.toThrow();
    expect(atProvider(providerId)['AmountPaid']).toBe(125); // the provider did make it
    expect(await pushMoney('account.payment', pay)).toMatchObject({ pushed: true });
    expect(atProvider(providerId)).toMatchObject({ AmountPaid: 125, AmountDue: 335 });
    expect((atProvider(providerId)['Payments'] as unknown[]).length).toBe(1);
  });

  it('a credit note and its allocation: each lost once, one credit note allocated once', async () => {
    const invoiceId = await postInvoice(h, 'Lost Credit');
    const providerId = await pushInvoice(invoiceId);
    const [inv] = await h.erp.read('account.move', [invoiceId], ['partner_id']);
    const cn = await h.erp.create('account.move', {
      move_type: 'out_refund',
      partner_id: (inv!['partner_id'] as [number, string])[0],
      reversed_entry_id: invoiceId,
      invoice_line_ids: [[0, 0, { name: 'Refund', quantity: 1, price_unit: 60, tax_ids: [[6, 0, []]] }]],
    });
    await h.erp.call('account.move', 'action_post', [[cn]]);
    h.local.dropNextReply('PUT', '/api.xro/2.0/CreditNotes');
    await expect(pushMoney('account.move', cn)).rejects.toThrow();
    expect(await pushMoney('account.move', cn)).toMatchObject({ pushed: true, allocated: 60 });
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 400, AmountCredited: 60 });

    // A second credit note whose allocation's reply is lost.
    const cn2 = await h.erp.create('account.move', {
      move_type: 'out_refund',
      partner_id: (inv!['partner_id'] as [number, string])[0],
      reversed_entry_id: invoiceId,
      invoice_line_ids: [[0, 0, { name: 'Refund 2', quantity: 1, price_unit: 40, tax_ids: [[6, 0, []]] }]],
    });
    await h.erp.call('account.move', 'action_post', [[cn2]]);
    h.local.dropNextReply('PUT', /^\/api\.xro\/2\.0\/CreditNotes\/[^/]+\/Allocations$/);
    await expect(pushMoney('account.move', cn2)).rejects.toThrow();
    expect(await pushMoney('account.move', cn2)).toMatchObject({ pushed: true, allocated: 40 });
    expect(atProvider(providerId)).toMatchObject({ AmountDue: 360, AmountCredited: 100 });
    expect((atProvider(providerId)['CreditNotes'] as unknown[]).length).toBe(2);
    expect(await pushMoney('account.move', cn2)).toMatchObject({ pushed: false, reason: 'already_sent' });
  });

  it('two workers at once: one payment at the provider', async () => {
    const invoiceId = await postInvoice(h, 'Two Workers');
    const providerId = await pushInvoice(invoiceId);
    const pay = await payInErp(invoiceId, 60, 'platform-twice:1');
    const results = await Promise.allSettled([pushMoney('account.payment', pay), pushMoney('account.payment', pay)]);
    expect(results.filter((r) => r.status === 'fulfilled' && r.value['pushed'] === true)).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ name: 'RetryLater' });
      else if (r.value['pushed'] !== true) expect(r.value).toMatchObject({ reason: 'already_sent' });
    expect(await pushMoney('account.payment', pay)).toMatchObject({ pushed: false, reason: 'already_sent' });
    expect((atProvider(providerId)['Payments'] as unknown[]).length).toBe(1);
    expect(atProvider(providerId)['AmountDue']).toBe(400);
  });
});
