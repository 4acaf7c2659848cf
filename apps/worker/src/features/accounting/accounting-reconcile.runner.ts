/**
 * The periodic reconciliation of accounting residuals (ACCOUNTING_RECONCILE_INTERVAL_MS, 0: off):
 * every interval (first pass shortly after start), each connected tenant's synced invoices are
 * compared with the provider's AmountDue and a repair job queued where they differ
 * (AccountingResidualAudit). One pass at a time; stop() waits for it.
 */
import type { Erp } from '@platform/erp';
import type { AccountingResidualAudit } from '@platform/integrations';
import { Periodic } from '@platform/kernel';

interface Logger {
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export class AccountingReconcileRunner {
  private readonly periodic: Periodic;

  constructor(
    private readonly audit: AccountingResidualAudit,
    private readonly erpFor: (tenantId: string) => Erp | Promise<Erp>,
    intervalMs: number,
    private readonly logger: Logger,
    /** Called when a pass queued repair jobs (wakes the relay). */
    private readonly onQueued: () => void = () => {},
  ) {
    this.periodic = new Periodic({
      everyMs: intervalMs,
      firstAfterMs: 30_000,
      pass: () => this.runOnce(),
      onError: (err) => logger.warn({ err }, 'accounting reconciliation failed; will try again'),
    });
  }

  start(firstAfterMs?: number): void {
    this.periodic.start(firstAfterMs);
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** One pass over every connected tenant; a tenant that fails is logged and the others still run. */
  async runOnce(passId = new Date().toISOString()): Promise<number> {
    let queued = 0;
    for (const tenantId of await this.audit.tenants()) {
      try {
        const r = await this.audit.auditTenant(tenantId, await this.erpFor(tenantId), passId);
        queued += r.queued.length + r.pushQueued.length;
        const noteworthy = r.queued.length > 0 || r.pushQueued.length > 0 || r.failed.length > 0 || r.stoppedEarly;
        (noteworthy ? this.logger.info : this.logger.debug).call(
          this.logger,
          { tenantId, ...r },
          'reconciled accounting residuals with the provider',
        );
      } catch (err) {
        this.logger.warn({ err, tenantId }, 'accounting reconciliation failed; will try again next pass');
      }
    }
    if (queued) this.onQueued();
    return queued;
  }
}
