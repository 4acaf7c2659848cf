/**
 * Wakes deliveries that wait for an ERP as soon as that ERP answers again. A row that failed with
 * ERP_UNAVAILABLE sleeps in exponential backoff (up to minutes); without this, a backlog would trickle
 * in long after the ERP came back. Every `probeMs` the runner asks each waiting tenant's ERP for its
 * version (one cheap, unauthenticated call) and, when it answers, makes that tenant's rows due again,
 * staggered, and polls the relay. Idempotent across workers: two workers waking the same rows is one wake.
 */
import type { Db } from '@platform/db';
import { Periodic } from '@platform/kernel';
import { tenantsWaitingOn, wakeWaiting } from '@platform/outbox';

interface Logger {
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ErpRecoveryOptions {
  db: Db;
  /** Answers when the tenant's ERP is reachable; throws otherwise. */
  probe: (tenantId: string) => Promise<unknown>;
  /** Polls the relay now. */
  wake: () => void;
  probeMs: number;
  logger: Logger;
  /** Gap between woken rows' due times. */
  staggerMs?: number;
}

/** The error code a delivery records when the ERP could not be reached (packages/erp). */
export const ERP_UNAVAILABLE_PREFIX = 'ERP_UNAVAILABLE';

export class ErpRecoveryRunner {
  private readonly periodic: Periodic;
  private stopped = false;

  constructor(private readonly o: ErpRecoveryOptions) {
    this.periodic = new Periodic({
      everyMs: o.probeMs,
      pass: () => this.runOnce(),
      onError: (err) => o.logger.warn({ err }, 'ERP recovery probe failed; will try again'),
    });
  }

  start(): void {
    this.periodic.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.periodic.stop();
  }

  /** One pass: probe each waiting tenant's ERP once, wake the rows of those that answer. */
  async runOnce(): Promise<number> {
    let woken = 0;
    for (const tenantId of await tenantsWaitingOn(this.o.db, ERP_UNAVAILABLE_PREFIX)) {
      if (this.stopped) break;
      try {
        await this.o.probe(tenantId);
      } catch {
        continue; // still down: its rows keep sleeping
      }
      const n = await wakeWaiting(this.o.db, tenantId, ERP_UNAVAILABLE_PREFIX, this.o.staggerMs ?? 20);
      if (n > 0) this.o.logger.info({ tenant_id: tenantId, woken: n }, 'ERP answers again; waiting deliveries woken');
      woken += n;
    }
    if (woken > 0) this.o.wake();
    return woken;
  }
}
