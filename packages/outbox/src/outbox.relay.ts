/**
 * Delivers outbox rows through topic handlers: at least once, retried with full-jitter exponential
 * backoff, dead-lettered with the reason after `maxAttempts`. Handlers must be idempotent at the
 * receiver (a crash between the receiver's effect and its batch's `done` write redelivers the row).
 */
import type { OutboxTopic } from '@platform/contracts';
import type { Db } from '@platform/db';

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
 * Thrown by a handler when a receiver asked to wait (HTTP 429 with Retry-After, a local rate limit):
 * the row is retried after `retryAfterMs` and the wait does not count as a failed attempt.
 */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'RetryLater';
  }
}

/** Thrown by a handler when retrying cannot help (the row goes straight to the dead letters). */
export class PermanentFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentFailure';
  }
}

export interface RelayLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RelayOptions {
  db: Db;
  workerId: string;
  handlers: OutboxHandlers;
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
  random?: () => number;
}

export function backoffDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1)));
}

export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<number> | undefined;
  private readonly o: Required<Omit<RelayOptions, 'random'>> & { random: () => number };

  constructor(opts: RelayOptions) {
    this.o = {
      batchSize: 10,
      pollMs: 500,
      maxAttempts: 8,
      baseDelayMs: 1_000,
      maxDelayMs: 5 * 60_000,
      visibilityTimeoutMs: 30_000,
      random: Math.random,
      ...opts,
    };
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
    const released = await releaseClaims(this.o.db, this.o.workerId).catch(() => 0);
    if (released) this.o.logger.info({ released }, 'released claimed outbox rows');
  }

  /** One poll: reclaim stale rows, claim a batch, process it. Returns how many rows were handled. */
  async tick(): Promise<number> {
    await reclaimStale(this.o.db, this.o.visibilityTimeoutMs);
    const rows = await claimBatch(this.o.db, this.o.workerId, this.o.batchSize, Object.keys(this.o.handlers));
    if (!rows.length) return 0;
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
      const done = (await Promise.all(rows.map((row) => this.handle(row)))).filter((d) => d !== undefined);
      await markDoneMany(this.o.db, this.o.workerId, done);
      for (const d of done) this.o.logger.info({ ...d.log, result: d.result }, 'outbox message delivered');
    } finally {
      clearInterval(heartbeat);
    }
    return rows.length;
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

  /** Runs one row's handler: delivered rows are returned (marked done with their batch), others rescheduled here. */
  private async handle(row: OutboxRow): Promise<{ id: number; result: unknown; log: object } | undefined> {
    const log = { outbox_id: row.id, topic: row.topic, attempt: row.attempts, tenant_id: row.tenant_id };
    const handler: OutboxHandler | undefined = this.o.handlers[row.topic];
    try {
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

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const text = e?.message ?? String(err);
  return (e?.code ? `${e.code}: ${text}` : text).slice(0, 2000);
}
