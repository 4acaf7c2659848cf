/**
 * Accounting sync end to end: a posted ERP invoice reaches the local Xero-protocol provider with the
 * Sales and Deposit account codes; a payment there comes back as a signed webhook and the ERP
 * invoice becomes paid with one payment, however often or out of order the webhook arrives; forged
 * or missing signatures are refused with 401 and change nothing.
 */
import { TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import { signXeroPayload } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type AccountingHarness,
  postInvoice,
  pushRow,
  startAccountingHarness,
  WEBHOOK_KEY,
} from '../../../test/support/accounting-harness.js';

let h: AccountingHarness;
let invoiceId: number;
let providerId: string;

beforeAll(async () => {
  h = await startAccountingHarness();
  await h.configure();
  const page = await h.connect();
  expect(page.status).toBe(200);
  invoiceId = await postInvoice(h);
}, 120_000);
afterAll(async () => h?.close());

const count = async (table: string) =>
  Number((await h.t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
const move = async (id: number) =>
  (
    await h.erp.read('account.move', [id], ['payment_state', 'amount_residual', 'x_acct_invoice_id', 'payment_ids'])
  )[0]!;
const postWebhook = (body: string, signature?: string) =>
  h.app.inject({
    method: 'POST',
    url: '/acct/webhook',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-xero-signature': signature } : {}) },
    payload: body,
  });

describe('pushing a posted customer invoice', () => {
  it('creates the invoice at the provider with sales and deposit account codes and stores its id on the ERP invoice', async () => {
    const r = (await h.handlers['accounting.push_invoice']!(pushRow(h, invoiceId))) as {
      pushed: boolean;
      providerInvoiceId: string;
    };
    expect(r.pushed).toBe(true);
    providerId = r.providerInvoiceId;
    const inv = h.local.invoices().find((i) => i['InvoiceID'] === providerId)!;
    const lines = inv['LineItems'] as Record<string, unknown>[];
    expect(lines.map((l) => [l['Description'], l['AccountCode'], l['UnitAmount']])).toEqual([
      ['Roller blinds x3', '200', 120],
      ['Down payment', '835', 100],
    ]);
    expect(inv['Total']).toBe(460);
    expect((await move(invoiceId))['x_acct_invoice_id']).toBe(providerId);
    expect(h.local.contacts().map((c) => c['ContactNumber'])).toEqual([expect.stringMatching(/^erp-partner-\d+$/)]);
  });

  it('sends it once however often the job runs', async () => {
    const again = (await h.handlers['accounting.push_invoice']!(pushRow(h, invoiceId))) as {
      pushed: boolean;
      reason: string;
    };
    expect(again).toMatchObject({ pushed: false, reason: 'already_sent', providerInvoiceId: providerId });
    // Lost bookkeeping on our side: the provider is searched by reference before creating.
    await h.t.db.query('DELETE FROM accounting_invoices');
    await h.erp.write('account.move', [invoiceId], { x_acct_invoice_id: false });
    const r = (await h.handlers['accounting.push_invoice']!(pushRow(h, invoiceId))) as {
      pushed: boolean;
      created: boolean;
      providerInvoiceId: string;
    };
    expect(r).toMatchObject({ pushed: true, created: false, providerInvoiceId: providerId });
    expect(h.local.invoices()).toHaveLength(1);
  });
});

describe('payment webhooks', () => {
  it('answers intent-to-receive probes: 200 with an empty body when signed right, 401 otherwise', async () => {
    const r = await h.local.sendIntentToReceive({ correct: 3, incorrect: 3 });
    expect(r.probes.filter((p) => p.signedCorrectly).every((p) => p.status === 200 && p.emptyBody)).toBe(true);
    expect(r.probes.filter((p) => !p.signedCorrectly).every((p) => p.status === 401)).toBe(true);
    expect(r.passed).toBe(true);
  });

  it('marks the ERP invoice paid with exactly one payment, even when the webhook is delivered three more times', async () => {
    h.local.recordPayment({ invoiceId: providerId, amount: 460 });
    await h.local.flushWebhooks();
    expect(await h.local.redeliverWebhook(undefined, 3)).toEqual([200, 200, 200]);
    const last = h.local.webhooks.at(-1)!;
    expect(last.attempts.every((a) => a.status === 200 && a.emptyBody)).toBe(true);
    expect(
      await h.t.db
        .query(`SELECT id FROM outbox WHERE topic = $1`, [TOPIC_ACCOUNTING_WEBHOOK])
        .then((r) => r.rows.length),
    ).toBe(1);
    const [result] = await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK);
    expect(result).toMatchObject({ registered: [expect.any(String)] });
    const m = await move(invoiceId);
    expect(m['payment_state']).toBe('paid');
    expect(m['amount_residual']).toBe(0);
    expect(await h.erp.searchCount('account.payment', [['reconciled_invoice_ids', 'in', [invoiceId]]])).toBe(1);
    // The job itself re-run (a redelivered outbox row) adds nothing.
    const again = await h.services.payments.applyInvoiceUpdate(
      h.tenantId,
      { providerTenantId: h.local.tenants[0]!.tenantId, invoiceId: providerId, eventDateUtc: '' },
      () => h.erp,
    );
    expect(again).toMatchObject({ registered: [], skipped: [expect.any(String)] });
    expect(await h.erp.searchCount('account.payment', [])).toBe(1);
  });

  it('registers each of several payments once when their events are handled out of order', async () => {
    const second = await postInvoice(h, 'Sam Roe');
    const r = (await h.handlers['accounting.push_invoice']!(pushRow(h, second))) as { providerInvoiceId: string };
    h.local.recordPayment({ invoiceId: r.providerInvoiceId, amount: 200 });
    await h.local.flushWebhooks();
    h.local.advanceTime(1000);
    h.local.recordPayment({ invoiceId: r.providerInvoiceId, amount: 260 });
    await h.local.flushWebhooks();
    const results = await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK, true);
    expect(results).toHaveLength(2);
    const m = await move(second);
    expect(m['payment_state']).toBe('paid');
    const payments = await h.erp.searchRead('account.payment', [['reconciled_invoice_ids', 'in', [second]]], {
      fields: ['amount', 'ref', 'journal_id'],
    });
    expect(payments.map((p) => p['amount']).sort()).toEqual([200, 260]);
    // On the Payment Journal of the connection, each marked with its provider payment id.
    const journal = (await h.connection())['payment_journal_id'];
    expect(
      payments.every(
        (p) =>
          Array.isArray(p['journal_id']) &&
          p['journal_id'][0] === journal &&
          /^Accounting payment \S+$/.test(String(p['ref'])),
      ),
    ).toBe(true);
  });

  it('refuses a forged or missing signature with 401 and changes nothing', async () => {
    const body = h.local.webhooks
      .filter((d) => d.kind === 'event')
      .at(-1)!
      .body.replace(/"eventDateUtc":"[^"]+"/, '"eventDateUtc":"2030-01-01T00:00:00.000"');
    const before = [await count('outbox'), await count('webhook_receipts'), await count('accounting_payments')];
    const forged = await postWebhook(body, signXeroPayload(body, `${WEBHOOK_KEY}-forged`));
    const missing = await postWebhook(body);
    const tampered = await postWebhook(`${body} `, signXeroPayload(body, WEBHOOK_KEY));
    for (const res of [forged, missing, tampered]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe('');
    }
    expect([await count('outbox'), await count('webhook_receipts'), await count('accounting_payments')]).toEqual(
      before,
    );
    // The same body signed right is accepted: the refusals were about the signature.
    expect((await postWebhook(body, signXeroPayload(body, WEBHOOK_KEY))).statusCode).toBe(200);
  });
});
