/**
 * The periodic reconciliation of accounting residuals (ACCOUNTING_RECONCILE_INTERVAL_MS, 0: off):
 * every interval (first pass shortly after start), each connected tenant's synced invoices are
 * compared with the provider's AmountDue and a repair job queued where they differ
 * (AccountingResidualAudit). One pass at a time; stop() waits for it.
 */
import type { Erp } from '@platform/erp';
import type { AccountingResidualAudit } from '@platform/integrations';

interface Logger {
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export class AccountingReconcileRunner {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private running = false;

  constructor(
    private readonly audit: AccountingResidualAudit,
    private readonly erpFor: (tenantId: string) => Erp | Promise<Erp>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    /** Called when a pass queued repair jobs (wakes the relay). */
    private readonly onQueued: () => void = () => {},
  ) {}

  start(firstAfterMs = 30_000): void {
    this.running = true;
    this.schedule(Math.min(firstAfterMs, this.intervalMs));
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.pass?.catch(() => undefined);
  }

  /** One pass over every connected tenant; a tenant that fails is logged and the others still run. */
  async runOnce(passId = new Date().toISOString()): Promise<number> {
    let queued = 0;
    for (const tenantId of await this.audit.tenants()) {
      try {
        const r = await this.audit.auditTenant(tenantId, await this.erpFor(tenantId), passId);
        queued += r.queued.length;
        const noteworthy = r.queued.length > 0 || r.failed.length > 0 || r.stoppedEarly;
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

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.pass = this.runOnce()
        .catch((err: unknown) => this.logger.warn({ err }, 'accounting reconciliation failed; will try again'))
        .finally(() => {
          this.pass = undefined;
          if (this.running) this.schedule(this.intervalMs);
        });
    }, ms);
    this.timer.unref();
  }
}
