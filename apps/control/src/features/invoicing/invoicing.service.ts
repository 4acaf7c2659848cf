/**
 * The office's side of the final invoice (docs/payments.md, "Final invoice"): invoice a completed
 * job in the tenant's ERP (once, however many requests race or retry), list the invoices, record a
 * cash, check or bank payment, and send the customer the pay link. The ERP is the system of record:
 * amounts are read from it and answered in integer minor units of the tenant's currency.
 */
import { createHash } from 'node:crypto';

import type {
  InvoiceDetail,
  InvoiceListAnswer,
  InvoiceListState,
  InvoicePaymentBody,
  InvoiceSummary,
  JobInvoiceAnswer,
} from '@platform/contracts/invoicing.js';
import { fromMinor } from '@platform/contracts/money.js';
import { type Db, withTenant } from '@platform/db';
import { registerInvoicePayment } from '@platform/erp';
import {
  applyUnderLease,
  findAnswer,
  fingerprint,
  LEASE_SECONDS,
  replayStored,
  requestInProgress,
  storeAnswer,
} from '@platform/intake';
import { AppError, type Clock, newId, type WriteAnswer } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { JobsReader } from '../jobs/jobs.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { paymentsOf } from './invoice-refunds-erp.js';
import * as repo from './invoicing.repo.js';
import {
  findFinalInvoice,
  makeFinalInvoice,
  orderState,
  postedInvoices,
  postInvoice,
  readCustomerInvoice,
  summaryOf,
} from './invoicing-erp.js';

export interface InvoicingParts {
  db: Db;
  clock: Clock;
  erps: TenantErps;
  audit: AuditLog;
  jobs: Pick<JobsReader, 'get'>;
  currency(tenantId: string): Promise<string>;
  /** Emails the pay link of a posted invoice (InvoiceLinks.send); a failure never undoes the invoice. */
  sendLink(p: Principal, invoiceId: number): Promise<unknown>;
}

const LIST_LIMIT = 500;
const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 24);
const notDue = (reason: string, message: string) => new AppError('INVOICE_NOT_DUE', message, { details: { reason } });
export const notPayable = (reason: string, message: string) =>
  new AppError('INVOICE_NOT_PAYABLE', message, { details: { reason } });
export const noInvoice = () => new AppError('NOT_FOUND', 'No such invoice.');
/** A refusal made before the ERP was asked to change anything: the job is free again. */
const nothingMade = (e: unknown) => e instanceof AppError && e.code === 'INVOICE_NOT_DUE';
/** The control plane acting on its own (a job invoiced automatically): an owner's reach, audited as the system. */
export const SYSTEM_USER_ID = '00000000-0000-0000-0000-000000000000';
export const systemPrincipal = (tenantId: string): Principal => ({
  userId: SYSTEM_USER_ID,
  tenantId,
  role: 'owner',
  email: '',
});
export const actorOf = (p: Principal) =>
  p.userId === SYSTEM_USER_ID ? { kind: 'system' as const } : { kind: 'user' as const, id: p.userId };
const METHOD_NAMES = { cash: 'Cash', check: 'Check', bank: 'Bank transfer' } as const;

export class InvoicingService {
  constructor(private readonly d: InvoicingParts) {}

  private today = () => this.d.clock.now().toISOString().slice(0, 10);

  /** A posted customer invoice of the tenant's ERP as the office sees it (404 for anything else). */
  async summary(tenantId: string, id: number): Promise<InvoiceSummary> {
    const m = await readCustomerInvoice(await this.d.erps.forTenant(tenantId), id);
    if (!m) throw noInvoice();
    return summaryOf(m, await this.d.currency(tenantId), this.today());
  }

  /** The invoice and its payments (GET /invoices/{id}). */
  async detail(tenantId: string, id: number): Promise<InvoiceDetail> {
    const s = await this.summary(tenantId, id);
    return { ...s, payments: await paymentsOf(await this.d.erps.forTenant(tenantId), id, s.currency) };
  }

  /**
   * The completed job's final invoice, made and posted in the ERP once: a stored Idempotency-Key
   * replays its answer; a job already invoiced answers its invoice; a request racing another gets
   * 409 IDEMPOTENCY_REQUEST_IN_PROGRESS; a request after a crash finds the ERP's invoice first.
   */
  async invoiceJob(p: Principal, jobId: string, key?: string): Promise<WriteAnswer<JobInvoiceAnswer>> {
    const route = `invoicing:job:${jobId}`;
    const fp = fingerprint('job-invoice', { jobId });
    const stored = key && (await withTenant(this.d.db, p.tenantId, (tx) => findAnswer(tx, p.tenantId, route, key)));
    if (stored) return replayStored<JobInvoiceAnswer>(stored, fp);
    const job = await this.d.jobs.get(p, jobId);
    const earlier = await withTenant(this.d.db, p.tenantId, (tx) => repo.findJobInvoice(tx, p.tenantId, jobId));
    if (earlier?.invoice_id) return this.answer(p, jobId, earlier.invoice_id, 'updated', route, key, fp);
    if (job.stage.key !== 'done') throw notDue('not_completed', 'Only a completed job can be invoiced.');
    const orderId = job.sale_order_id;
    if (!orderId) throw notDue('no_order', 'The job has no sales order to invoice.');
    const claim = { tenantId: p.tenantId, jobId, orderId, seconds: LEASE_SECONDS };
    if (!(await withTenant(this.d.db, p.tenantId, (tx) => repo.claimJobInvoice(tx, claim)))) {
      const now = await withTenant(this.d.db, p.tenantId, (tx) => repo.findJobInvoice(tx, p.tenantId, jobId));
      if (now?.invoice_id) return this.answer(p, jobId, now.invoice_id, 'updated', route, key, fp);
      throw requestInProgress();
    }
    const lease = {
      forget: () => withTenant(this.d.db, p.tenantId, (tx) => repo.forgetJobInvoice(tx, p.tenantId, jobId)),
      release: () => withTenant(this.d.db, p.tenantId, (tx) => repo.releaseJobInvoice(tx, p.tenantId, jobId)),
    };
    const invoiceId = await applyUnderLease(lease, () => this.makeInErp(p.tenantId, orderId), nothingMade);
    await withTenant(this.d.db, p.tenantId, async (tx) => {
      await repo.setJobInvoice(tx, p.tenantId, jobId, invoiceId);
      await this.d.audit.record(tx, {
        tenantId: p.tenantId,
        actor: actorOf(p),
        action: 'invoicing.job.invoice',
        target: { type: 'job', id: jobId },
        detail: { sale_order_id: orderId, invoice_id: invoiceId },
      });
    });
    // The customer hears of it by email; an invoice without an address (or a failed send) still stands.
    await this.d.sendLink(p, invoiceId).catch(() => undefined);
    return this.answer(p, jobId, invoiceId, 'created', route, key, fp);
  }

  private async makeInErp(tenantId: string, orderId: number): Promise<number> {
    const erp = await this.d.erps.forTenant(tenantId);
    const state = await orderState(erp, orderId);
    if (state !== 'sale' && state !== 'done')
      throw notDue('not_confirmed', "The job's sales order is not confirmed in the ERP.");
    let id = await findFinalInvoice(erp, orderId);
    if (!id) {
      id = await makeFinalInvoice(erp, orderId).catch((e: unknown) => {
        // The ERP's own refusal (nothing left to invoice) made nothing.
        if (e instanceof Error && /nothing to invoice/i.test(e.message))
          throw notDue('nothing_to_invoice', 'The ERP has nothing left to invoice on this order.');
        throw e;
      });
    }
    await postInvoice(erp, id);
    return id;
  }

  private async answer(
    p: Principal,
    jobId: string,
    invoiceId: number,
    outcome: 'created' | 'updated',
    route: string,
    key: string | undefined,
    fp: string,
  ): Promise<WriteAnswer<JobInvoiceAnswer>> {
    const body = { job_id: jobId, invoice: await this.summary(p.tenantId, invoiceId) };
    if (key)
      await withTenant(this.d.db, p.tenantId, (tx) =>
        storeAnswer(tx, p.tenantId, route, key, { fingerprint: fp, outcome, response: body }),
      );
    return { outcome, body, replayed: false };
  }

  /** The posted invoices in one tab, and what each customer still owes across them. */
  async list(p: Principal, state: InvoiceListState): Promise<InvoiceListAnswer> {
    const currency = await this.d.currency(p.tenantId);
    const today = this.today();
    const all = await postedInvoices(await this.d.erps.forTenant(p.tenantId), LIST_LIMIT);
    const items = all.map((m) => summaryOf(m, currency, today)).filter((i) => i.state === state);
    const owed = new Map<string, InvoiceListAnswer['balances'][number]>();
    for (const i of items) {
      if (i.residual_minor <= 0) continue;
      const k = `${i.customer.id ?? i.customer.name}`;
      const b = owed.get(k) ?? { customer: i.customer, residual_minor: 0, currency };
      b.residual_minor += i.residual_minor;
      owed.set(k, b);
    }
    return { state, items, balances: [...owed.values()].sort((a, b) => b.residual_minor - a.residual_minor) };
  }

  /** A cash, check or bank payment of at most the residual, registered on the ERP invoice once per key. */
  async recordPayment(
    p: Principal,
    id: number,
    b: InvoicePaymentBody,
    key?: string,
  ): Promise<WriteAnswer<InvoiceSummary>> {
    const route = `invoicing:payment:${id}`;
    const fp = fingerprint('invoice-payment', { id, ...b });
    const stored = key && (await withTenant(this.d.db, p.tenantId, (tx) => findAnswer(tx, p.tenantId, route, key)));
    if (stored) return replayStored<InvoiceSummary>(stored, fp);
    const before = await this.summary(p.tenantId, id);
    const m = await readCustomerInvoice(await this.d.erps.forTenant(p.tenantId), id);
    if (m?.state !== 'posted') throw notPayable('not_posted', 'Only a posted invoice takes payments.');
    if (before.residual_minor <= 0) throw notPayable('paid', 'Nothing is left to pay on this invoice.');
    if (b.amount_minor > before.residual_minor)
      throw new AppError('VALIDATION_FAILED', 'The payment is more than is left to pay.', {
        fieldIssues: [
          { field: 'amount_minor', rule: 'max', message: `must be at most the residual, ${before.residual_minor}` },
        ],
      });
    // The memo is the payment's identity in the ERP: a retry under the same key finds it.
    const memo = `${METHOD_NAMES[b.method]} ${b.memo ? `${b.memo} ` : ''}[${digest(key ?? newId())}]`;
    const erp = await this.d.erps.forTenant(p.tenantId);
    const paymentId = await registerInvoicePayment(erp, {
      invoiceId: id,
      amount: fromMinor(b.amount_minor, before.currency),
      memo,
      journalType: b.method === 'cash' ? 'cash' : 'bank',
      ...(b.date ? { date: b.date } : {}),
    });
    const after = await this.summary(p.tenantId, id);
    await withTenant(this.d.db, p.tenantId, async (tx) => {
      await this.d.audit.record(tx, {
        tenantId: p.tenantId,
        actor: actorOf(p),
        action: 'invoicing.payment.record',
        target: { type: 'invoice', id },
        detail: { amount_minor: b.amount_minor, method: b.method, payment_id: paymentId },
      });
      if (key) await storeAnswer(tx, p.tenantId, route, key, { fingerprint: fp, outcome: 'created', response: after });
    });
    return { outcome: 'created', body: after, replayed: false };
  }
}
