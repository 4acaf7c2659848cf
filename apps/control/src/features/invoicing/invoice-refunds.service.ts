/**
 * Refunding all or part of an invoice's card payment (docs/payments.md, "Final invoice"): the refund
 * at the provider on the tenant's connected account, then a credit note in the ERP reversing the
 * invoice and the money paid back (an outbound payment). Once per request: an Idempotency-Key replays the
 * answer, and the provider's idempotency key names the payment, what was refunded before and the
 * amount, so requests racing with the same amount make one refund. The refund's id makes the ERP records findable on a retry.
 */
import { formatMoney } from '@platform/contracts/money.js';
import { type Db, withTenant } from '@platform/db';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import { AppError, type WriteAnswer } from '@platform/kernel';
import { isPaymentsError, type PaymentsApi } from '@platform/providers';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import type { CardRefundMirror } from './card-refund.js';
import { CARD_REF } from './invoice-refunds-erp.js';
import { checkoutByIntent } from './invoicing.repo.js';
import { actorOf, notPayable } from './invoicing.service.js';

export interface RefundAnswer {
  payment_id: number;
  refund_id: string;
  amount_minor: number;
  currency: string;
  credit_note_id: number;
  /** What can still be refunded of the payment. */
  refundable_minor: number;
}

export interface InvoiceRefundsParts {
  db: Db;
  erps: TenantErps;
  audit: AuditLog;
  api: PaymentsApi | undefined;
  mirror: CardRefundMirror;
}

const noPayment = () => new AppError('NOT_FOUND', 'No such payment.');

export class InvoiceRefunds {
  constructor(private readonly d: InvoiceRefundsParts) {}

  async refund(
    p: Principal,
    paymentId: number,
    body: { amount_minor?: number | undefined },
    key?: string,
  ): Promise<WriteAnswer<RefundAnswer>> {
    const route = `invoicing:refund:${paymentId}`;
    const fp = fingerprint('payment-refund', { paymentId, ...body });
    const stored = key && (await withTenant(this.d.db, p.tenantId, (tx) => findAnswer(tx, p.tenantId, route, key)));
    if (stored) return replayStored<RefundAnswer>(stored, fp);
    const erp = await this.d.erps.forTenant(p.tenantId);
    // A search, not a read: an id the ERP does not hold is a 404, never the ERP's refusal.
    const [pay] = await erp.searchRead('account.payment', [['id', '=', paymentId]], {
      fields: ['ref', 'state', 'reconciled_invoice_ids'],
    });
    if (!pay) throw noPayment();
    const intent = CARD_REF.exec(typeof pay.ref === 'string' ? pay.ref : '')?.[1];
    const invoiceId = Array.isArray(pay.reconciled_invoice_ids) ? Number(pay.reconciled_invoice_ids[0]) : NaN;
    const row = intent && (await withTenant(this.d.db, p.tenantId, (tx) => checkoutByIntent(tx, p.tenantId, intent)));
    if (!intent || !row || pay.state !== 'posted' || !Number.isInteger(invoiceId))
      throw notPayable('not_card', 'Only a card payment taken through the pay link can be refunded here.');
    const api = this.d.api;
    if (!api) throw new AppError('PAYMENTS_NOT_CONFIGURED', 'Card payments are not configured.');
    const failed = (e: unknown) =>
      new AppError('PAYMENTS_PROVIDER_FAILED', 'The payments provider did not answer; try again.', {
        cause: e,
        ...(isPaymentsError(e) ? { details: { provider_error: e.kind } } : {}),
      });
    const at = await api.getPayment(row.account_id, intent).catch((e: unknown) => {
      throw failed(e);
    });
    const refundable = at ? at.amountReceivedMinor - at.amountRefundedMinor : 0;
    if (refundable <= 0) throw notPayable('refunded', 'This payment is refunded in full already.');
    const amount = body.amount_minor ?? refundable;
    if (amount > refundable)
      throw new AppError('VALIDATION_FAILED', 'The refund is more than is left of the payment.', {
        fieldIssues: [
          {
            field: 'amount_minor',
            rule: 'max',
            message: `must be at most ${formatMoney(refundable, row.currency)}, what is left of the payment`,
          },
        ],
      });
    const refund = await api
      .refund({
        accountId: row.account_id,
        paymentIntentId: intent,
        amountMinor: amount,
        reason: 'requested_by_customer',
        ref: `invoice ${invoiceId}`,
        // The request's own key when it has one: its retry after a crash gets the same refund back.
        idempotencyKey: key
          ? `refund:${p.tenantId}:${intent}:key:${key}`
          : `refund:${p.tenantId}:${intent}:${at!.amountRefundedMinor}:${amount}`,
      })
      .catch((e: unknown) => {
        throw failed(e);
      });
    const creditNote = await this.d.mirror.mirror(
      p.tenantId,
      { invoiceId, paymentIntentId: intent, refundId: refund.refundId, amountMinor: amount, currency: row.currency },
      'office',
    );
    const answer: RefundAnswer = {
      payment_id: paymentId,
      refund_id: refund.refundId,
      amount_minor: amount,
      currency: row.currency,
      credit_note_id: creditNote,
      refundable_minor: refundable - amount,
    };
    await withTenant(this.d.db, p.tenantId, async (tx) => {
      await this.d.audit.record(tx, {
        tenantId: p.tenantId,
        actor: actorOf(p),
        action: 'invoicing.payment.refund',
        target: { type: 'payment', id: paymentId },
        detail: { amount_minor: amount, refund_id: refund.refundId, credit_note_id: creditNote },
      });
      if (key) await storeAnswer(tx, p.tenantId, route, key, { fingerprint: fp, outcome: 'created', response: answer });
    });
    return { outcome: 'created', body: answer, replayed: false };
  }
}
