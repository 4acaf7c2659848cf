/**
 * "Invoice automatically when an install job completes" (docs/payments.md, "Final invoice"): the
 * tenant's switch (off by default), the outbox job queued in the transaction that records the job's
 * completion (so a crash after it loses nothing), and its handler, which invoices the job as the
 * office's "Invoice" does (once: a retry finds the job's invoice). The control plane runs its own
 * relay for this one topic (control.server.ts): the invoicing service and its tables are its own.
 */
import { hostname } from 'node:os';

import { type InvoiceAutoJob, TOPIC_INVOICE_AUTO } from '@platform/contracts';
import type { InvoicingSettings } from '@platform/contracts/invoicing.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import { AppError, newId } from '@platform/kernel';
import { enqueue, type OutboxHandler, type OutboxHandlers, OutboxRelay, type RelayLogger } from '@platform/outbox';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { JobCompletion } from '../jobs/job-order-change.js';
import { autoInvoiceOn, setAutoInvoice } from './invoicing.repo.js';
import { actorOf, type InvoicingService, systemPrincipal } from './invoicing.service.js';

/** Refusals that retrying cannot change: the job is left for the office. */
const SKIPPED = new Set(['INVOICE_NOT_DUE', 'NOT_FOUND']);

export class AutoInvoicing implements JobCompletion {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly office: () => Pick<InvoicingService, 'invoiceJob'>,
  ) {}

  async jobCompleted(tx: Queryable, tenantId: string, jobId: string): Promise<void> {
    if (!(await autoInvoiceOn(tx, tenantId))) return;
    const payload: InvoiceAutoJob = { jobId };
    await enqueue(tx, {
      tenantId,
      topic: TOPIC_INVOICE_AUTO,
      aggregateId: jobId,
      dedupeKey: `invoice-auto:${jobId}`,
      payload,
    });
  }

  async settings(tenantId: string): Promise<InvoicingSettings> {
    return { auto_invoice: await withTenant(this.db, tenantId, (tx) => autoInvoiceOn(tx, tenantId)) };
  }

  async setSettings(p: Principal, s: InvoicingSettings, ip?: string): Promise<InvoicingSettings> {
    await withTenant(this.db, p.tenantId, async (tx) => {
      await setAutoInvoice(tx, p.tenantId, s.auto_invoice);
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: actorOf(p),
        action: 'invoicing.settings.set',
        target: { type: 'tenant', id: p.tenantId },
        ...(ip ? { ip } : {}),
        detail: { auto_invoice: s.auto_invoice },
      });
    });
    return s;
  }

  readonly handle: OutboxHandler<typeof TOPIC_INVOICE_AUTO> = async (row) => {
    try {
      const a = await this.office().invoiceJob(systemPrincipal(row.tenant_id), row.payload.jobId);
      return { invoiceId: a.body.invoice.id, outcome: a.outcome };
    } catch (e) {
      if (e instanceof AppError && SKIPPED.has(e.code))
        return { skipped: e.code, reason: (e.details as { reason?: string } | undefined)?.reason ?? null };
      throw e;
    }
  };

  /** The control plane's relay for this topic (and `also`'s); the worker's relays never claim them. */
  relay(logger: RelayLogger, also: OutboxHandlers = {}): OutboxRelay {
    return new OutboxRelay({
      db: this.db,
      workerId: `${hostname()}:${process.pid}:control-invoicing:${newId().slice(0, 8)}`,
      handlers: { ...also, [TOPIC_INVOICE_AUTO]: this.handle },
      logger,
    });
  }
}
