/**
 * The final invoice and its balance (docs/payments.md, "Final invoice"): the office's service, the
 * customer's pay links and the webhook hook for `invoice` checkouts. Built from deps.ts through one
 * getter, read at first use, so the parts made after it (documents, payments) can be handed over.
 */
import type { Db } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import type { Clock } from '@platform/kernel';
import type { OutboxRelay, RelayLogger } from '@platform/outbox';

import type { ControlConfig } from '../../control.config.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { DocumentsService } from '../documents/documents.compose.js';
import type { JobCompletion } from '../jobs/job-order-change.js';
import type { JobsFeature } from '../jobs/jobs.compose.js';
import type { MessagesFeature } from '../messages/messages.compose.js';
import { depositPaidHooks } from '../payments/deposit-paid.js';
import type { PaymentEventHooks } from '../payments/payment-webhook.service.js';
import type { PaymentsFeature } from '../payments/payments.compose.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { CardRefundMirror, invoiceRefundCreated } from './card-refund.js';
import { AutoInvoicing } from './invoice-auto.js';
import { InvoiceLinks } from './invoice-links.service.js';
import { invoiceCheckoutCompleted } from './invoice-paid.js';
import { InvoiceCheckoutReconciler } from './invoice-reconcile.js';
import { InvoiceRefunds } from './invoice-refunds.service.js';
import { InvoicingService } from './invoicing.service.js';

export interface InvoicingFeature extends JobCompletion {
  office: InvoicingService;
  links: InvoiceLinks;
  /** The tenant's switch, the completed job's outbox job and its relay (control.server.ts starts it). */
  auto: AutoInvoicing;
  /** Open checkouts whose webhook never came, asked of the provider (control.server.ts runs it). */
  reconciler: InvoiceCheckoutReconciler;
  refunds: InvoiceRefunds;
  /** The control plane's relay for this feature's topics: invoicing automatically and mirroring card refunds. */
  relay(logger: RelayLogger): OutboxRelay;
  /** The payments webhook's hooks: `invoice` checkouts here, every other kind to the deposit's. */
  hooks: PaymentEventHooks;
}

/** ControlDeps' share (deps.ts extends it). */
export interface InvoicingDeps {
  invoicing: InvoicingFeature;
}

export interface InvoicingInputs {
  db: Db;
  clock: Clock;
  erps: TenantErps;
  audit: AuditLog;
  email: EmailOutboxService;
  jobs: JobsFeature;
  documents: DocumentsService;
  payments: PaymentsFeature;
  currency(tenantId: string): Promise<string>;
  /** The unpaid invoice's reminder (absent where messages are not composed). */
  messages?: Pick<MessagesFeature, 'scheduler'>;
}

export const invoiceOrDepositHooks = (deposit: PaymentEventHooks): PaymentEventHooks => ({
  checkoutCompleted: (tx, tenantId, s) =>
    s.metadata?.kind === 'invoice'
      ? invoiceCheckoutCompleted(tx, tenantId, s)
      : deposit.checkoutCompleted(tx, tenantId, s),
  refundCreated: invoiceRefundCreated,
});

type Built = Pick<InvoicingFeature, 'office' | 'links' | 'auto' | 'reconciler' | 'refunds'> & {
  mirror: CardRefundMirror;
};

function build(config: ControlConfig, d: InvoicingInputs): Built {
  // One provider client and one notion of the tenant's origin: the payments feature's.
  const api = d.payments.api;
  const origin = (tenantId: string) => d.payments.origin(tenantId);
  const office: InvoicingService = new InvoicingService({
    ...{ db: d.db, clock: d.clock, erps: d.erps, audit: d.audit, currency: d.currency },
    jobs: d.jobs.reader,
    // `links` is made just below; a send happens long after.
    sendLink: (p, id) => links.send(p, id),
  });
  const links: InvoiceLinks = new InvoiceLinks({
    ...{ db: d.db, clock: d.clock, erps: d.erps, audit: d.audit, email: d.email, currency: d.currency },
    invoices: office,
    api,
    account: async (tenantId) => {
      const a = (await d.payments.settings.view(tenantId)).account;
      return a.charges_enabled && a.account_id ? a.account_id : undefined;
    },
    pdf: (p, id) => d.documents.billing.invoice(p, id),
    origin,
    linkDays: config.PORTAL_LINK_TTL_DAYS,
    remind: (tx, tenantId, i) => d.messages?.scheduler.invoiceIssued(tx, tenantId, i) ?? Promise.resolve(),
  });
  const mirror = new CardRefundMirror(d.db, d.erps);
  return {
    office,
    links,
    auto: new AutoInvoicing(d.db, d.audit, () => office),
    reconciler: new InvoiceCheckoutReconciler(d.db, api, () => d.clock.now()),
    refunds: new InvoiceRefunds({ db: d.db, audit: d.audit, api, erps: d.erps, mirror }),
    mirror,
  };
}

export function composeInvoicing(config: ControlConfig, inputs: () => InvoicingInputs): InvoicingFeature {
  let made: Built | undefined;
  const get = () => (made ??= build(config, inputs()));
  return {
    get office() {
      return get().office;
    },
    get links() {
      return get().links;
    },
    get auto() {
      return get().auto;
    },
    get reconciler() {
      return get().reconciler;
    },
    get refunds() {
      return get().refunds;
    },
    relay: (logger) => get().auto.relay(logger, get().mirror.handlers()),
    jobCompleted: (tx, tenantId, jobId) => get().auto.jobCompleted(tx, tenantId, jobId),
    hooks: invoiceOrDepositHooks(depositPaidHooks),
  };
}
