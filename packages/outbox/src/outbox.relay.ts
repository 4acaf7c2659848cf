/**
 * Delivers outbox rows through topic handlers: at least once, retried with full-jitter exponential
 * backoff, dead-lettered with the reason after `maxAttempts`. Handlers must be idempotent at the
 * receiver (a crash between the receiver's effect and its batch's `done` write redelivers the row).
 */
import type { OutboxTopic } from '@platform/contracts';
import type { Db } from '@platform/db';

import { backoffDelay, describe, PermanentFailure, RetryLater } from './outbox.failures.js';
import {
  claimBatch,
  markDead,
  markDoneMany,
  markRetry,
  type OutboxRow,
  reclaimStale,
  releaseClaims,
  touchClaims,
} from './outbox.repo.js';

/**
 * Delivers a row of topic T. Declared as a method so a map of handlers, each typed by its topic, is
 * also usable where any handler is expected (tests call them by topic name).
 */
export type OutboxHandler<T extends OutboxTopic = OutboxTopic> = {
  handle(row: OutboxRow<T>): Promise<unknown>;
}['handle'];
/** Topic → its handler; the relay claims only the topics it has a handler for. */
export type OutboxHandlers = { [T in OutboxTopic]?: OutboxHandler<T> };

/**
 * Delivers a claimed batch's rows of topic T together (one read and one write for all of them
 * instead of one each): one settled outcome per row, in the order of `rows`. A rejected outcome is
 * retried or dead-lettered exactly as a per-row handler's error would be.
 */
export type OutboxBatchHandler<T extends OutboxTopic = OutboxTopic> = {
  handle(rows: OutboxRow<T>[]): Promise<PromiseSettledResult<unknown>[]>;
}['handle'];
export type OutboxBatchHandlers = { [T in OutboxTopic]?: OutboxBatchHandler<T> };

export interface RelayLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RelayOptions {
  db: Db;
  workerId: string;
  handlers: OutboxHandlers;
  /** Topics whose rows are delivered a batch at a time (a topic is in `handlers` or here, not both). */
  batchHandlers?: OutboxBatchHandlers;
  logger: RelayLogger;
  batchSize?: number;
  pollMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * A claim whose worker stopped refreshing it (killed, hung) for this long goes back to pending.
   * Live workers refresh their claims every third of it, so a slow delivery is never taken twice.
   */
  visibilityTimeoutMs?: number;
  /**
   * How often at most this relay sweeps stale claims back to pending (default: a sixth of the
   * visibility timeout, at most 5 s): a dead worker's row waits at most the timeout plus this.
   */
  sweepEveryMs?: number;
  /**
   * While a full batch is delivered, claim the next one (one batch ahead at most), so the claim
   * overlaps the deliveries instead of following them. The prefetched rows wait, claimed, for the
   * next tick; stop() gives them back, and if the worker dies they are reclaimed like any claim.
   */
  prefetch?: boolean;
  /**
   * SQL of the topics' owner run inside the claim's statement: an expression over the claimed row
   * `c` (its outbox columns) that may read the owner's own tables. Its value reaches the handlers as
   * `row.claimed_with`, so what they would read first arrives with the claim (one round trip fewer).
   */
  claimWith?: string;
  random?: () => number;
}

export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<number> | undefined;
  private lastSweep = -Infinity;
  private prefetched: Promise<OutboxRow[]> | undefined;
  private readonly o: Required<Omit<RelayOptions, 'random' | 'sweepEveryMs' | 'claimWith'>> &
    Pick<RelayOptions, 'claimWith'> & { random: () => number };
  private readonly sweepEveryMs: number;

  constructor(opts: RelayOptions) {
    this.o = {
      batchSize: 10,
      pollMs: 500,
      maxAttempts: 8,
      baseDelayMs: 1_000,
      maxDelayMs: 5 * 60_000,
      visibilityTimeoutMs: 30_000,
      random: Math.random,
      batchHandlers: {},
      prefetch: false,
      ...opts,
    };
    this.sweepEveryMs = opts.sweepEveryMs ?? Math.min(5_000, Math.floor(this.o.visibilityTimeoutMs / 6));
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Asks for an immediate poll (e.g. right after a submission was committed in this process). */
  wake(): void {
    if (this.running && !this.ticking) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking?.catch(() => 0);
    await this.prefetched;
    this.prefetched = undefined;
    const released = await releaseClaims(this.o.db, this.o.workerId).catch(() => 0);
    if (released) this.o.logger.info({ released }, 'released claimed outbox rows');
  }

  /**
   * One poll: reclaim stale rows (when the last sweep is `sweepEveryMs` old), claim a batch, process
   * it. Returns how many rows were handled.
   */
  async tick(): Promise<number> {
    if (performance.now() - this.lastSweep >= this.sweepEveryMs) {
      await reclaimStale(this.o.db, this.o.visibilityTimeoutMs);
      this.lastSweep = performance.now();
    }
    const rows = await (this.prefetched ?? this.claim());
    this.prefetched = undefined;
    if (!rows.length) return 0;
    if (this.o.prefetch && rows.length === this.o.batchSize)
      this.prefetched = this.claim().catch((err: unknown) => {
        this.o.logger.warn({ err }, 'outbox prefetch failed; the next poll claims again');
        return [];
      });
    // One heartbeat for the batch, kept until its delivered rows are marked done together.
    const ids = rows.map((r) => r.id);
    const heartbeat = setInterval(
      () => void touchClaims(this.o.db, ids, this.o.workerId).catch(() => undefined),
      Math.max(10, Math.floor(this.o.visibilityTimeoutMs / 3)),
    );
    heartbeat.unref();
    try {
      // Rows of one batch run concurrently; each is independent and idempotent at its receiver, so a
      // crash before the batch's one `done` write only redelivers rows their receivers already have.
      const done = (await this.handleAll(rows)).filter((d) => d !== undefined);
      await markDoneMany(this.o.db, this.o.workerId, done);
      for (const d of done) this.o.logger.info({ ...d.log, result: d.result }, 'outbox message delivered');
    } finally {
      clearInterval(heartbeat);
    }
    return rows.length;
  }

  private claim(): Promise<OutboxRow[]> {
    const topics = [...Object.keys(this.o.handlers), ...Object.keys(this.o.batchHandlers)];
    return claimBatch(this.o.db, this.o.workerId, this.o.batchSize, topics, this.o.claimWith);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), ms);
  }

  private async loop(): Promise<void> {
    if (!this.running || this.ticking) return;
    let handled = 0;
    try {
      this.ticking = this.tick();
      handled = await this.ticking;
    } catch (err) {
      this.o.logger.warn({ err }, 'outbox poll failed; will retry');
    } finally {
      this.ticking = undefined;
    }
    if (this.running) this.schedule(handled === this.o.batchSize ? 0 : this.o.pollMs);
  }

  /** Runs the batch's handlers: per-row ones one call per row, batch ones one call per topic. */
  private async handleAll(rows: OutboxRow[]): Promise<({ id: number; result: unknown; log: object } | undefined)[]> {
    const outcomes = new Map<OutboxRow, Promise<unknown>>();
    const byTopic = new Map<OutboxBatchHandler, OutboxRow[]>();
    for (const row of rows) {
      const batch: OutboxBatchHandler | undefined = this.o.batchHandlers[row.topic];
      if (batch) byTopic.set(batch, [...(byTopic.get(batch) ?? []), row]);
    }
    for (const [batch, group] of byTopic) {
      const settled = Promise.resolve().then(() => batch(group)); // a synchronous throw fails the group, not the tick
      group.forEach((row, i) =>
        outcomes.set(
          row,
          settled.then((s) => {
            const r = s[i];
            if (!r) throw new Error(`batch handler of ${row.topic} gave no outcome for row ${row.id}`);
            if (r.status === 'rejected') throw r.reason;
            return r.value;
          }),
        ),
      );
    }
    return Promise.all(rows.map((row) => this.handle(row, outcomes.get(row))));
  }

  /**
   * Settles one row: delivered rows are returned (marked done with their batch), others rescheduled
   * here. `outcome` is its batch handler's answer for the row; without one, its per-row handler runs.
   */
  private async handle(
    row: OutboxRow,
    outcome?: Promise<unknown>,
  ): Promise<{ id: number; result: unknown; log: object } | undefined> {
    const log = { outbox_id: row.id, topic: row.topic, attempt: row.attempts, tenant_id: row.tenant_id };
    const handler: OutboxHandler | undefined = this.o.handlers[row.topic];
    try {
      if (outcome) return { id: row.id, result: await outcome, log };
      if (!handler) throw new PermanentFailure(`no handler for topic ${row.topic}`);
      return { id: row.id, result: await handler(row), log };
    } catch (err) {
      const reason = describe(err);
      if (err instanceof RetryLater) {
        const delay = Math.max(err.retryAfterMs, 0) + Math.floor(this.o.random() * 1000);
        await markRetry(this.o.db, row.id, this.o.workerId, reason, delay, { countAttempt: false });
        this.o.logger.info({ ...log, reason, retry_in_ms: delay }, 'outbox delivery deferred by the receiver');
      } else if (err instanceof PermanentFailure || row.attempts >= this.o.maxAttempts) {
        await markDead(this.o.db, row.id, this.o.workerId, reason);
        this.o.logger.error({ ...log, reason }, 'outbox message dead-lettered');
      } else {
        const delay = backoffDelay(row.attempts, this.o.baseDelayMs, this.o.maxDelayMs, this.o.random);
        await markRetry(this.o.db, row.id, this.o.workerId, reason, delay);
        this.o.logger.warn({ ...log, reason, retry_in_ms: delay }, 'outbox delivery failed; will retry');
      }
      return undefined;
    }
  }
}
