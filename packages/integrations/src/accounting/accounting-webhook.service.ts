/**
 * POST /acct/webhook and its job. Receiving: the signature (base64 HMAC-SHA256 of the raw body
 * with the Webhook Key) is checked in constant time; intent-to-receive probes and every correctly
 * signed batch get 200 with an empty body, anything else 401, and nothing slow happens here (the
 * provider wants an answer within 5 s): each INVOICE UPDATE event is de-duplicated on
 * tenantId+resourceId+eventDateUtc and becomes an outbox job. The job reads the invoice at the
 * provider and registers, on the Payment Journal, every provider payment the ERP does not have
 * yet, so repeated and out-of-order events change nothing twice.
 */
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { enqueue } from '@platform/outbox';
import { TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import { parseXeroWebhook, verifyXeroSignature, webhookEventKey, type AccountingApi, type InvoicePayment } from '@platform/providers';
import type { AccountingCalls } from './accounting-calls.js';
import type { AccountingTokens } from './accounting-tokens.js';
import * as repo from './accounting.repo.js';

export interface AccountingWebhookJob {
  providerTenantId: string;
  invoiceId: string;
  eventDateUtc: string;
}

export type AccountingWebhookOutcome = { status: 200; queued: number } | { status: 401 | 400; reason: string };
export type PaymentsResult = { registered: string[]; skipped: string[] } | { ignored: 'unknown_invoice' | 'unknown_organisation' };

/** Marks an ERP payment as the provider's payment `id`: looked up by it before registering again. */
export const paymentRef = (providerPaymentId: string): string => `Accounting payment ${providerPaymentId}`;

export class AccountingWebhookService {
  constructor(
    private readonly db: Db,
    private readonly tokens: AccountingTokens,
    private readonly onQueued: () => void = () => {},
  ) {}

  /** `text` is the body decoded by its declared charset (UTF-8 when absent); the signature covers `rawBody`. */
  async receive(tenantId: string, rawBody: Buffer, signature: string | undefined, text?: string): Promise<AccountingWebhookOutcome> {
    const keys = (await repo.listConnections(this.db, tenantId)).map((r) => this.tokens.open(r, 'webhook_key', r.webhook_key_enc));
    if (!keys.some((k) => verifyXeroSignature(rawBody, signature, k))) return { status: 401, reason: 'bad or missing signature' };
    let batch;
    try {
      batch = parseXeroWebhook(text ?? rawBody);
    } catch {
      return { status: 400, reason: 'malformed payload' };
    }
    if (batch.isIntentToReceive) return { status: 200, queued: 0 };
    const events = batch.events.filter((e) => e.eventCategory === 'INVOICE' && e.eventType === 'UPDATE');
    const queued = await this.db.transaction(async (tx) => {
      let n = 0;
      for (const e of events) {
        const key = webhookEventKey(e);
        if (!(await repo.recordReceipt(tx, tenantId, key))) continue;
        const payload: AccountingWebhookJob = { providerTenantId: e.tenantId, invoiceId: e.resourceId, eventDateUtc: e.eventDateUtc };
        if ((await enqueue(tx, { tenantId, topic: TOPIC_ACCOUNTING_WEBHOOK, aggregateId: e.resourceId, dedupeKey: `accounting-webhook:${key}`, payload: { ...payload } })) !== null) n++;
      }
      return n;
    });
    if (queued) this.onQueued();
    return { status: 200, queued };
  }
}

export class AccountingPaymentsService {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
  ) {}

  /** The job: register the provider's payments of the invoice in the ERP, once each. */
  async applyInvoiceUpdate(tenantId: string, job: AccountingWebhookJob, erpFor: (erpDb: string) => Erp): Promise<PaymentsResult> {
    const row = await repo.findByProviderTenant(this.db, tenantId, job.providerTenantId);
    if (!row) return { ignored: 'unknown_organisation' };
    const sent = await repo.findSentByProviderId(this.db, tenantId, job.invoiceId);
    if (!sent) return { ignored: 'unknown_invoice' };
    const invoice = await this.calls.call(row, 'get invoice', (auth) => this.api.getInvoice(auth, job.invoiceId));
    const erp = erpFor(sent.erp_db);
    const out = { registered: [] as string[], skipped: [] as string[] };
    const payments = [...invoice.payments].sort((a, b) => a.date.getTime() - b.date.getTime() || a.paymentId.localeCompare(b.paymentId));
    for (const p of payments) {
      // One registration of a given invoice at a time, across workers. The ERP is outside this
      // transaction: the claim row comes first, the ERP payment carries the provider id in its ref
      // and is looked up by it before registering again (after a crash between the two).
      const id = await this.db.transaction(async (tx) => {
        await repo.lockKey(tx, `accounting-payment:${tenantId}:${job.invoiceId}`);
        const claim = await repo.claimPayment(tx, tenantId, { paymentId: p.paymentId, invoiceId: job.invoiceId, amount: p.amount });
        if (claim.erp_payment_id !== null) return undefined;
        const erpId = await this.registerOnce(erp, sent.erp_invoice_id, row.payment_journal_id, p);
        if (erpId !== undefined) await repo.setErpPayment(tx, tenantId, p.paymentId, erpId);
        return erpId;
      });
      (id !== undefined ? out.registered : out.skipped).push(p.paymentId);
    }
    return out;
  }

  private async registerOnce(erp: Erp, invoiceId: number, journalId: number | null, p: InvoicePayment): Promise<number | undefined> {
    const ref = paymentRef(p.paymentId);
    const [existing] = await erp.search('account.payment', [['ref', '=', ref]], { limit: 1 });
    if (existing) return existing;
    const [inv] = await erp.read('account.move', [invoiceId], ['amount_residual', 'state']);
    const residual = Number(inv?.['amount_residual'] ?? 0);
    if (!inv || inv['state'] !== 'posted' || residual <= 0) return undefined;
    // Never more than what is left: the ERP refuses an over-payment. Odoo's "Register Payment"
    // wizard, as an Odoo 15 client uses it: it creates the payment and reconciles it with the invoice.
    const wizard = await erp.create(
      'account.payment.register',
      { amount: Math.min(p.amount, residual), payment_date: p.date.toISOString().slice(0, 10), communication: ref, ...(journalId ? { journal_id: journalId } : {}) },
      { active_model: 'account.move', active_ids: [invoiceId] },
    );
    await erp.call('account.payment.register', 'action_create_payments', [[wizard]]);
    const [paymentId] = await erp.search('account.payment', [['ref', '=', ref]], { limit: 1 });
    if (paymentId === undefined) throw new Error(`the ERP registered no payment with ref "${ref}"`);
    return paymentId;
  }
}
