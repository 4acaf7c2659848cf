/**
 * The `accounting.webhook` job: bring the ERP invoice to what the provider says, so that its
 * residual equals the provider's AmountDue after every webhook. It reads the invoice at the provider
 * and registers in the ERP, once each (accounting_payments, primary key tenant + key, claimed before
 * the ERP is touched): every payment, every credit note / prepayment / overpayment allocated to it
 * (accounting-erp-money.ts); a payment we registered that is gone from the invoice is read at the
 * provider and, when DELETED (or unknown), cancelled in the ERP; an allocation gone from the invoice
 * (removed at the provider) is cancelled in the ERP. Then the residuals are compared:
 * a difference is flagged on the invoice (needs attention), agreement clears the flag. Repeated,
 * concurrent and out-of-order events change nothing twice: each registration or undo takes a lease on
 * its accounting_payments row in one short statement, calls the ERP with no platform transaction open
 * (a slow ERP must not hold the platform database, which on the embedded database blocks every
 * query, the webhook's own insert included), then records the ERP id and releases. A row leased by
 * another worker makes the job retry later; an expired lease (a crash) is taken over, and the ERP
 * helpers find the first attempt's record by its reference.
 */
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { RetryLater } from '@platform/outbox';
import { type AccountingApi, isAccountingError } from '@platform/providers';

import * as repo from './accounting.repo.js';
import type { AccountingAttention } from './accounting-attention.js';
import type { AccountingCalls } from './accounting-calls.js';
import {
  allocationRef,
  paymentRef,
  registerCreditNote,
  registerPayment,
  undoCreditNote,
  undoPayment,
} from './accounting-erp-money.js';
import { sentProviderIds } from './accounting-money-out.repo.js';
import { isErpMoneyReference } from './accounting-money-out.service.js';
import type { AccountingWebhookJob } from './accounting-webhook.service.js';

export type PaymentsResult =
  | { registered: string[]; skipped: string[]; undone: string[]; residual: number; amountDue: number; agrees: boolean }
  | { ignored: 'unknown_invoice' | 'unknown_organisation' };

interface Item {
  key: string;
  kind: repo.RegisteredMoney['kind'];
  amount: number;
  date: Date;
  ref: string;
  number: string;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const cents = (n: number) => Math.round(n * 100);

export class AccountingPaymentsService {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
    private readonly attention: AccountingAttention,
    /** How long a worker may take over the ERP call of one registration before another may take over. */
    private readonly leaseMs = 5 * 60_000,
  ) {}

  /** Runs the ERP work of a leased row; on failure gives the lease back so a retry need not wait for it. */
  private async underLease<T>(tenantId: string, key: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      await repo.releaseLease(this.db, tenantId, key).catch(() => undefined);
      throw e;
    }
  }

  async applyInvoiceUpdate(
    tenantId: string,
    job: AccountingWebhookJob,
    erpFor: (erpDb: string) => Erp,
  ): Promise<PaymentsResult> {
    const row = await repo.findByProviderTenant(this.db, tenantId, job.providerTenantId);
    if (!row) return { ignored: 'unknown_organisation' };
    const sent = await repo.findSentByProviderId(this.db, tenantId, job.invoiceId);
    if (!sent) return { ignored: 'unknown_invoice' };
    const invoice = await this.calls.call(row, 'get invoice', (auth) => this.api.getInvoice(auth, job.invoiceId));
    const erp = erpFor(sent.erp_db);
    const invoiceRef = invoice.invoiceNumber || invoice.invoiceId;
    // Money we sent from the ERP is already there: never registered again (no loop). Known by its
    // provider id, or by its Reference while its id is not stored yet (a notice racing our own write).
    const ours = await sentProviderIds(this.db, tenantId, [
      ...invoice.payments.map((p) => p.paymentId),
      ...invoice.allocations.map((a) => a.id),
    ]);
    const live = invoice.payments.filter(
      (p) => p.status !== 'DELETED' && !ours.has(p.paymentId) && !isErpMoneyReference(p.reference),
    );
    const items: Item[] = [
      ...live.map((p) => ({
        key: p.paymentId,
        kind: 'payment' as const,
        amount: p.amount,
        date: p.date,
        ref: paymentRef(p.paymentId),
        number: '',
      })),
      ...invoice.allocations
        .filter((a) => !(a.kind === 'credit_note' && ours.has(a.id)))
        .map((a) => ({
          key: `${a.kind}:${a.id}:${invoice.invoiceId}`,
          kind: a.kind,
          amount: a.appliedAmount,
          date: a.date,
          ref: allocationRef(a.kind, a.id, invoiceRef),
          number: a.number,
        })),
    ].sort((a, b) => a.date.getTime() - b.date.getTime() || a.key.localeCompare(b.key));
    const out = { registered: [] as string[], skipped: [] as string[], undone: [] as string[] };
    let busy = 0;
    for (const it of items) {
      const claim = await repo.claimPayment(this.db, tenantId, {
        paymentId: it.key,
        invoiceId: job.invoiceId,
        amount: it.amount,
        kind: it.kind,
        erpModel: it.kind === 'credit_note' ? 'account.move' : 'account.payment',
      });
      if (claim.erp_payment_id !== null) {
        out.skipped.push(it.key);
        continue;
      }
      if (!(await repo.takeLease(this.db, tenantId, it.key, 'register', this.leaseMs))) {
        busy++;
        continue;
      }
      const money = { ref: it.ref, amount: it.amount, date: day(it.date) };
      const erpId = await this.underLease(tenantId, it.key, () =>
        it.kind === 'credit_note'
          ? registerCreditNote(erp, sent.erp_invoice_id, { ...money, number: it.number })
          : registerPayment(erp, sent.erp_invoice_id, row.payment_journal_id, money),
      );
      if (erpId !== undefined) await repo.setErpPayment(this.db, tenantId, it.key, erpId);
      else await repo.releaseLease(this.db, tenantId, it.key);
      (erpId !== undefined ? out.registered : out.skipped).push(it.key);
    }
    const liveKeys = new Set(items.map((it) => it.key));
    for (const reg of await repo.listRegistered(this.db, tenantId, job.invoiceId)) {
      if (reg.undone_at || reg.erp_payment_id === null || liveKeys.has(reg.provider_payment_id)) continue;
      // The invoice is authoritative for allocations; a payment may only have dropped off the list.
      if (reg.kind === 'payment' && !(await this.deletedAtProvider(row, reg.provider_payment_id))) continue;
      if (!(await repo.takeLease(this.db, tenantId, reg.provider_payment_id, 'undo', this.leaseMs))) {
        busy++;
        continue;
      }
      await this.underLease(tenantId, reg.provider_payment_id, () =>
        reg.kind === 'credit_note' ? undoCreditNote(erp, reg.erp_payment_id!) : undoPayment(erp, reg.erp_payment_id!),
      );
      await repo.markUndone(this.db, tenantId, reg.provider_payment_id);
      out.undone.push(reg.provider_payment_id);
    }
    // Another worker is registering some of this money right now: compare once it is done.
    if (busy) throw new RetryLater(`${busy} registration(s) of invoice ${job.invoiceId} in progress elsewhere`, 10_000);
    const [after] = await erp.read('account.move', [sent.erp_invoice_id], ['amount_residual']);
    const residual = Number(after?.['amount_residual'] ?? 0);
    const agrees = cents(residual) === cents(invoice.amountDue);
    if (agrees) await this.attention.clear(tenantId, erp, sent.erp_db, sent.erp_invoice_id, ['residual_mismatch']);
    else {
      await this.attention.flag(
        tenantId,
        erp,
        sent.erp_db,
        sent.erp_invoice_id,
        'residual_mismatch',
        `Amount due ${invoice.amountDue.toFixed(2)} at the accounting provider (invoice ${invoiceRef}) but ${residual.toFixed(2)} in the ERP.`,
      );
    }
    return { ...out, residual, amountDue: invoice.amountDue, agrees };
  }

  /** A payment missing from the invoice: DELETED at the provider, or not found there any more. */
  private async deletedAtProvider(row: Parameters<AccountingCalls['call']>[0], paymentId: string): Promise<boolean> {
    try {
      const p = await this.calls.call(row, 'get payment', (auth) => this.api.getPayment(auth, paymentId));
      return p.status === 'DELETED';
    } catch (e) {
      const cause = e instanceof Error && isAccountingError(e.cause) ? e.cause : e;
      if (isAccountingError(cause) && cause.kind === 'not_found') return true;
      throw e;
    }
  }
}
