/**
 * Issue 22, lost notices: the provider's webhook is answered at once whatever the ERP is doing (the
 * repair job never holds a platform transaction across an ERP call, which on the embedded database
 * would block the webhook's own insert), and the periodic reconciliation repairs a balance whose
 * notice never arrived. Against the local Xero-protocol stand-in (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL).
 */
import { TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import type { Erp } from '@platform/erp';
import { type OutboxRow, RetryLater } from '@platform/outbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  type AccountingHarness,
  postInvoice,
  pushRow,
  startAccountingHarness,
} from '../../../test/support/accounting-harness.js';
import { accountingHandlers } from './accounting.jobs.js';
import { AccountingReconcileRunner } from './accounting-reconcile.runner.js';

let h: AccountingHarness;
let webhookUrl: string;

beforeAll(async () => {
  h = await startAccountingHarness();
  await h.configure();
  expect((await h.connect()).status).toBe(200);
  webhookUrl = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}/acct/webhook`;
}, 120_000);
afterAll(async () => h?.close());
// A fresh minute of the provider's call limit, and distinct event times (notices dedupe on them).
beforeEach(() => h.local.advanceTime(61_000));

/** An ERP whose every call waits until `release()`; `entered` resolves at the first call held. */
function slowErp(erp: Erp) {
  let release!: () => void;
  let entered!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const first = new Promise<void>((r) => (entered = r));
  let released = false;
  const wrapped = new Proxy(erp, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return async (...args: unknown[]) => {
        entered();
        await gate;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    erp: wrapped,
    entered: first,
    isReleased: () => released,
    release: () => ((released = true), release()),
  };
}

const pending = async () =>
  (
    await h.t.db.query<OutboxRow>(`SELECT * FROM outbox WHERE topic = $1 AND status = 'pending' ORDER BY id`, [
      TOPIC_ACCOUNTING_WEBHOOK,
    ])
  ).rows;
const residual = async (id: number) =>
  Number((await h.erp.read('account.move', [id], ['amount_residual']))[0]!['amount_residual']);
const amountDue = (providerInvoiceId: string) =>
  Number(h.local.invoices().find((i) => i['InvoiceID'] === providerInvoiceId)!['AmountDue']);
/** The one pending repair job of this provider invoice, taken off the queue (the test runs it by hand). */
async function takeJob(providerInvoiceId: string): Promise<OutboxRow> {
  const rows = (await pending()).filter((r) => (r.payload as { invoiceId: string }).invoiceId === providerInvoiceId);
  expect(rows).toHaveLength(1);
  await h.t.db.query(`UPDATE outbox SET status = 'done' WHERE id = $1`, [rows[0]!.id]);
  return rows[0]!;
}
async function pushed(): Promise<{ id: number; providerInvoiceId: string }> {
  const id = await postInvoice(h);
  const r = (await h.handlers['accounting.push_invoice']!(pushRow(h, id))) as { providerInvoiceId: string };
  return { id, providerInvoiceId: r.providerInvoiceId };
}

describe('notices while the ERP is slow', { timeout: 90_000 }, () => {
  it('answers every notice with 200 while a repair job waits on the ERP, and the residuals agree after', async () => {
    const { id, providerInvoiceId } = await pushed();
    h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 100 });
    await h.local.flushWebhooks();
    const job = await takeJob(providerInvoiceId);
    const slow = slowErp(h.erp);
    const running = accountingHandlers(h.services, () => slow.erp)[TOPIC_ACCOUNTING_WEBHOOK]!(job);
    await slow.entered; // the job is inside its ERP work now

    const sentBefore = h.local.webhooks.length;
    const cn = h.local.recordCredit({ invoiceId: providerInvoiceId, kind: 'credit_note', amount: 60 });
    h.local.advanceTime(1_000);
    h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 40 });
    h.local.advanceTime(1_000);
    h.local.removeAllocation({ id: cn.id });
    await h.local.flushWebhooks();
    const answered = h.local.webhooks.slice(sentBefore).flatMap((d) => d.attempts.map((a) => a.status));
    // Every notice was answered, 200, while the ERP was still held.
    expect(answered.length).toBeGreaterThanOrEqual(3);
    expect(answered.every((s) => s === 200)).toBe(true);
    expect(slow.isReleased()).toBe(false);
    expect((await pending()).length).toBeGreaterThanOrEqual(3);

    slow.release();
    await running;
    await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK);
    expect(amountDue(providerInvoiceId)).toBeGreaterThan(0);
    expect(await residual(id)).toBe(amountDue(providerInvoiceId));
  });
});

const quiet = { info: () => {}, debug: () => {}, warn: () => {} };
const reconciler = () => new AccountingReconcileRunner(h.services.audit, () => h.erp, 60_000, quiet);
/** Runs `change` with the provider's notices going nowhere (never delivered, never retried). */
function withNoticesLost<T>(change: () => T): T {
  h.local.setWebhookUrl(undefined);
  try {
    return change();
  } finally {
    h.local.setWebhookUrl(webhookUrl);
  }
}

describe('two workers on one invoice', { timeout: 90_000 }, () => {
  it('a job finding the payment leased by a worker inside the ERP retries later; one ERP payment in the end', async () => {
    const { id, providerInvoiceId } = await pushed();
    const paid = h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 300 });
    await h.local.flushWebhooks();
    const job = await takeJob(providerInvoiceId);
    const slow = slowErp(h.erp);
    const first = accountingHandlers(h.services, () => slow.erp)[TOPIC_ACCOUNTING_WEBHOOK]!(job);
    await slow.entered;
    await expect(h.handlers[TOPIC_ACCOUNTING_WEBHOOK]!(job)).rejects.toBeInstanceOf(RetryLater);
    slow.release();
    await expect(first).resolves.toMatchObject({ registered: [paid.paymentId], agrees: true });
    // The retry finds the payment registered and only compares.
    await expect(h.handlers[TOPIC_ACCOUNTING_WEBHOOK]!(job)).resolves.toMatchObject({
      registered: [],
      skipped: [paid.paymentId],
      agrees: true,
    });
    const payments = await h.erp.search('account.payment', [['ref', '=', `Accounting payment ${paid.paymentId}`]]);
    expect(payments).toHaveLength(1);
    expect(await residual(id)).toBe(amountDue(providerInvoiceId));
  });

  it('a lease left by a crashed worker expires and is taken over without a second ERP payment', async () => {
    const { providerInvoiceId } = await pushed();
    const paid = h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 80 });
    await h.local.flushWebhooks();
    const job = await takeJob(providerInvoiceId);
    // The crashed worker claimed the row and had the ERP register the payment, then died before recording it.
    await h.handlers[TOPIC_ACCOUNTING_WEBHOOK]!(job);
    await h.t.db.query(
      `UPDATE accounting_payments SET erp_payment_id = NULL, lease_until = now() - interval '1 second'
       WHERE tenant_id = $1 AND provider_payment_id = $2`,
      [h.tenantId, paid.paymentId],
    );
    await expect(h.handlers[TOPIC_ACCOUNTING_WEBHOOK]!(job)).resolves.toMatchObject({
      registered: [paid.paymentId],
      agrees: true,
    });
    const payments = await h.erp.search('account.payment', [['ref', '=', `Accounting payment ${paid.paymentId}`]]);
    expect(payments).toHaveLength(1);
  });
});

describe('periodic reconciliation', { timeout: 90_000 }, () => {
  it('repairs in one pass a payment whose notice never arrived, queuing it once per pass', async () => {
    const { id, providerInvoiceId } = await pushed();
    withNoticesLost(() => h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 250 }));
    await h.local.flushWebhooks();
    expect(await pending()).toEqual([]);
    expect(await residual(id)).not.toBe(amountDue(providerInvoiceId));

    // Only the invoice that differs is queued, and a second look in the same pass queues nothing more.
    expect(await reconciler().runOnce('pass-1')).toBe(1);
    expect(await reconciler().runOnce('pass-1')).toBe(0);
    expect((await pending()).map((r) => r.payload)).toEqual([
      expect.objectContaining({ invoiceId: providerInvoiceId }),
    ]);
    await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK);
    expect(await residual(id)).toBe(amountDue(providerInvoiceId));
    expect(await reconciler().runOnce('pass-2')).toBe(0);
  });

  it('a credit note added, then removed with the notice lost, ends with the ERP residual equal to AmountDue', async () => {
    const { id, providerInvoiceId } = await pushed();
    const cn = h.local.recordCredit({ invoiceId: providerInvoiceId, kind: 'credit_note', amount: 34.87 });
    await h.local.flushWebhooks();
    await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK);
    expect(await residual(id)).toBe(amountDue(providerInvoiceId));
    h.local.advanceTime(1_000);
    withNoticesLost(() => h.local.removeAllocation({ id: cn.id }));
    expect(await residual(id)).toBeCloseTo(amountDue(providerInvoiceId) - 34.87, 2);

    expect(await reconciler().runOnce('pass-3')).toBe(1);
    await h.runJobs(TOPIC_ACCOUNTING_WEBHOOK);
    expect(await residual(id)).toBe(amountDue(providerInvoiceId));
    const refunds = await h.erp.searchRead('account.move', [['reversed_entry_id', '=', id]], { fields: ['state'] });
    expect(refunds).toEqual([expect.objectContaining({ state: 'cancel' })]);
  });

  it('a connected tenant whose ERP cannot be reached is logged and the pass goes on', async () => {
    const warned: object[] = [];
    const broken = new AccountingReconcileRunner(
      h.services.audit,
      () => Promise.reject(new Error('ERP unreachable')),
      60_000,
      { ...quiet, warn: (o) => void warned.push(o) },
    );
    expect(await broken.runOnce('pass-4')).toBe(0);
    expect(warned).toEqual([expect.objectContaining({ tenantId: h.tenantId })]);
  });
});
