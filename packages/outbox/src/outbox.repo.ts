/** SQL of the transactional outbox. Claims use FOR UPDATE SKIP LOCKED so workers never share a row. */
import type { OutboxPayloads, OutboxTopic } from '@platform/contracts';
import type { Queryable } from '@platform/db';

interface OutboxRowFields {
  id: number;
  tenant_id: string;
  aggregate_id: string | null;
  dedupe_key: string | null;
  status: 'pending' | 'processing' | 'done' | 'dead';
  attempts: number;
  next_attempt_at: Date;
  locked_by: string | null;
  last_error: string | null;
  created_at: Date;
  /** What the relay's `claimWith` SQL read with the row in its claim (absent without one). */
  claimed_with?: unknown;
}

/** A row of one topic (or, for a union of topics, one of them): its payload is that topic's type. */
export type OutboxRow<T extends OutboxTopic = OutboxTopic> = T extends OutboxTopic
  ? OutboxRowFields & { topic: T; payload: OutboxPayloads[T] }
  : never;

export interface NewOutboxMessage<T extends OutboxTopic = OutboxTopic> {
  tenantId: string;
  topic: T;
  aggregateId?: string;
  dedupeKey?: string;
  payload: OutboxPayloads[T];
}

/** Writes a message inside the caller's transaction. Returns null when the dedupe key was already used. */
export async function enqueue<T extends OutboxTopic>(tx: Queryable, m: NewOutboxMessage<T>): Promise<number | null> {
  const r = await tx.query<{ id: number }>(
    `INSERT INTO outbox (tenant_id, topic, aggregate_id, dedupe_key, payload) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
    [m.tenantId, m.topic, m.aggregateId ?? null, m.dedupeKey ?? null, JSON.stringify(m.payload)],
  );
  return r.rows[0]?.id ?? null;
}

/**
 * Claims up to `limit` due rows of `topics`, oldest first. Each topic's due rows are read in order
 * from outbox_due_by_topic, at most `limit` of them (locked only for this statement unless chosen),
 * so a claim costs the same whatever the backlog. `claimWith`: see RelayOptions.claimWith.
 */
export async function claimBatch(
  db: Queryable,
  workerId: string,
  limit: number,
  topics: string[],
  claimWith?: string,
): Promise<OutboxRow[]> {
  const claim = `UPDATE outbox SET status = 'processing', locked_by = $1, locked_at = now(), attempts = attempts + 1
     WHERE id IN (
       SELECT c.id FROM unnest($3::text[]) AS tp(topic) CROSS JOIN LATERAL (
         SELECT o.id, o.next_attempt_at FROM outbox o
         WHERE o.status = 'pending' AND o.topic = tp.topic AND o.next_attempt_at <= now()
           -- A suspended (or deleted, or half-provisioned) tenant's messages wait, kept, until it is
           -- active. A row filter (not an anti-join) so the scan stays in index order and stops early.
           AND o.tenant_id <> ALL (ARRAY(SELECT t.id FROM tenants t WHERE t.status <> 'active'))
         ORDER BY o.next_attempt_at, o.id LIMIT $2 FOR UPDATE SKIP LOCKED) c
       ORDER BY c.next_attempt_at, c.id LIMIT $2)
     RETURNING *`;
  const r = await db.query<OutboxRow>(
    claimWith ? `WITH c AS (${claim}) SELECT c.*, ${claimWith} AS claimed_with FROM c` : claim,
    [workerId, limit, topics],
  );
  return r.rows.sort((a, b) => a.id - b.id);
}

export async function markRetry(
  db: Queryable,
  id: number,
  workerId: string,
  error: string,
  delayMs: number,
  opts: { countAttempt?: boolean } = {},
): Promise<void> {
  // A wait the receiver asked for is not a failure: give the attempt back.
  const give = opts.countAttempt === false ? 1 : 0;
  await db.query(
    `UPDATE outbox SET status = 'pending', locked_by = NULL, locked_at = NULL, last_error = $3,
       next_attempt_at = now() + ($4::double precision * interval '1 millisecond'), attempts = greatest(attempts - $5, 0)
     WHERE id = $1 AND locked_by = $2`,
    [id, workerId, error, delayMs, give],
  );
}

export async function markDead(db: Queryable, id: number, workerId: string, error: string): Promise<void> {
  await db.query(
    `UPDATE outbox SET status = 'dead', locked_by = NULL, locked_at = NULL, last_error = $3 WHERE id = $1 AND locked_by = $2`,
    [id, workerId, error],
  );
}

/** Marks a batch's delivered rows done in one write (each with its handler's result). */
export async function markDoneMany(
  db: Queryable,
  workerId: string,
  done: { id: number; result: unknown }[],
): Promise<void> {
  if (!done.length) return;
  await db.query(
    `UPDATE outbox o SET status = 'done', done_at = now(), locked_by = NULL, locked_at = NULL, last_error = NULL,
       result = d.result::jsonb
     FROM unnest($1::bigint[], $2::text[]) AS d(id, result) WHERE o.id = d.id AND o.locked_by = $3`,
    [done.map((d) => d.id), done.map((d) => (d.result === undefined ? null : JSON.stringify(d.result))), workerId],
  );
}

/** Heartbeat of the claims of a batch being worked on. */
export async function touchClaims(db: Queryable, ids: number[], workerId: string): Promise<void> {
  await db.query(
    `UPDATE outbox SET locked_at = now() WHERE id = ANY($1::bigint[]) AND locked_by = $2 AND status = 'processing'`,
    [ids, workerId],
  );
}

/** On clean shutdown: give claimed rows back without counting the attempt. */
export async function releaseClaims(db: Queryable, workerId: string): Promise<number> {
  const r = await db.query(
    `UPDATE outbox SET status = 'pending', locked_by = NULL, locked_at = NULL, attempts = greatest(attempts - 1, 0)
     WHERE status = 'processing' AND locked_by = $1`,
    [workerId],
  );
  return r.rowCount;
}

/** Rows claimed by a worker that died (kill -9) go back to pending after the visibility timeout. */
export async function reclaimStale(db: Queryable, olderThanMs: number): Promise<number> {
  const r = await db.query(
    `UPDATE outbox SET status = 'pending', locked_by = NULL, locked_at = NULL
     WHERE status = 'processing' AND locked_at < now() - ($1::double precision * interval '1 millisecond')`,
    [olderThanMs],
  );
  return r.rowCount;
}

export async function replayDead(db: Queryable, ids?: number[]): Promise<number> {
  const r = ids?.length
    ? await db.query(
        `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = now() WHERE status = 'dead' AND id = ANY($1::bigint[])`,
        [ids],
      )
    : await db.query(
        `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = now() WHERE status = 'dead'`,
      );
  return r.rowCount;
}

export async function listByStatus(db: Queryable, status: OutboxRow['status'], limit = 100): Promise<OutboxRow[]> {
  const r = await db.query<OutboxRow>('SELECT * FROM outbox WHERE status = $1 ORDER BY id LIMIT $2', [status, limit]);
  return r.rows;
}

export async function countByStatus(db: Queryable): Promise<Record<string, number>> {
  const r = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM outbox GROUP BY status',
  );
  return Object.fromEntries(r.rows.map((x) => [x.status, x.n]));
}

/**
 * Deletes up to `limit` done rows (retention). A row with a dedupe key is what stops its event being
 * queued twice, so it is kept until `keyedBefore`; other done rows go after `before`.
 */
export async function pruneDoneRows(db: Queryable, before: Date, keyedBefore: Date, limit: number): Promise<number> {
  const r = await db.query(
    `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'done'
       AND done_at < CASE WHEN dedupe_key IS NULL THEN $1::timestamptz ELSE $2::timestamptz END LIMIT $3)`,
    [before, keyedBefore, limit],
  );
  return r.rowCount;
}

/**
 * Whether a tenant has a row of `topic` queued before row `id` that is not finished (pending or being
 * worked on): for handlers that must take a tenant's rows of a topic in order (outbound webhooks'
 * fan-out). A dead row does not hold the others up.
 */
export async function earlierUnfinished(db: Queryable, tenantId: string, topic: string, id: number): Promise<boolean> {
  const r = await db.query(
    `SELECT 1 FROM outbox WHERE tenant_id = $1 AND topic = $2 AND id < $3 AND status IN ('pending', 'processing') LIMIT 1`,
    [tenantId, topic, id],
  );
  return r.rows.length > 0;
}

/**
 * Tenants with pending rows asleep in their retry backoff after failing with `errorPrefix` (e.g. the
 * ERP being unreachable): the candidates for a recovery probe.
 */
export async function tenantsWaitingOn(db: Queryable, errorPrefix: string): Promise<string[]> {
  const r = await db.query<{ tenant_id: string }>(
    `SELECT DISTINCT tenant_id FROM outbox
     WHERE status = 'pending' AND next_attempt_at > now() AND starts_with(coalesce(last_error, ''), $1)`,
    [errorPrefix],
  );
  return r.rows.map((x) => x.tenant_id);
}

/**
 * Wakes a tenant's rows asleep after failing with `errorPrefix`, because what they wait for answers
 * again. They become due in their original order, `staggerMs` apart, so a long backlog is not thrown
 * at a just-recovered receiver all at once (the relay's batch size bounds it further).
 */
export async function wakeWaiting(
  db: Queryable,
  tenantId: string,
  errorPrefix: string,
  staggerMs: number,
): Promise<number> {
  const r = await db.query(
    `UPDATE outbox o SET next_attempt_at = now() + ((w.rank - 1) * $3::double precision * interval '1 millisecond')
     FROM (SELECT id, row_number() OVER (ORDER BY next_attempt_at, id) AS rank FROM outbox
           WHERE tenant_id = $1 AND status = 'pending' AND next_attempt_at > now()
             AND starts_with(coalesce(last_error, ''), $2)) w
     WHERE o.id = w.id AND o.status = 'pending'`,
    [tenantId, errorPrefix, staggerMs],
  );
  return r.rowCount;
}
