/**
 * How every mutating /jobs call runs, so that it is applied once whatever is retried or lost:
 *
 * 1. With an Idempotency-Key, a stored answer is returned as it was (another body under the same key
 *    is refused). Otherwise the intent (a marker and the job's version) is committed first, in one
 *    transaction with any plan reservation, before the ERP is touched.
 * 2. The ERP effect is applied. A request that takes over an unfinished intent (lost reply, crash)
 *    first looks for the effect (by the marker, or by the values it set) and applies it only if absent.
 * 3. The platform's rows, the audit entry and the stored answer commit in one transaction.
 *
 * A refusal before any ERP change frees the key; a failure that may have reached the ERP keeps the
 * intent and lets the next request with the key take over at once. Key syntax, fingerprint, stored
 * answer and lease are the idempotency primitive's (@platform/intake); `job_requests` holds them.
 */
import { createHash, randomUUID } from 'node:crypto';

import { type Db, type Queryable, withTenant } from '@platform/db';
import {
  applyUnderLease,
  fingerprint,
  keyReused,
  LEASE_SECONDS,
  replayStored,
  requestInProgress,
} from '@platform/intake';
import { AppError, type WriteAnswer, type WriteOutcome } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { forgetIntent, insertIntent, lockRequest, releaseLease, renewLease, storeAnswer } from './job-requests.repo.js';

export interface MutationContext {
  principal: Principal;
  ip?: string | undefined;
  idempotencyKey?: string | undefined;
  ifMatch?: string | undefined;
  /** Who the audit names (default: the principal as a user); seeding runs as the system. */
  actor?: { kind: 'system' } | undefined;
}

/** What a /jobs write did (the route maps the outcome to its status). */
export type Answer = WriteAnswer;

export interface Applied<R> {
  /** What apply() learnt (ids made in the ERP) for commit(). */
  outcome: R;
}

export interface MutationPlan<R> {
  action: string;
  /** The request as the client sent it (method, path, body): one key, one request. */
  request: unknown;
  /** The job's version before the change (null for a create). */
  baseVersion: string | null;
  /** If-Match against the current version (throws JOB_CONFLICT with `current`). */
  checkVersion?(ifMatch: string): Promise<void>;
  /** Inside the intent's transaction (a create reserves its place in the plan's monthly jobs). */
  reserve?(tx: Queryable): Promise<void>;
  apply(a: { marker: string; recovering: boolean; baseVersion: string | null }): Promise<R>;
  commit(
    tx: Queryable,
    outcome: R,
    marker: string,
  ): Promise<{
    outcome: WriteOutcome;
    body: unknown;
    target: { type: string; id: string };
    detail?: Record<string, unknown>;
  }>;
}

/** Refusals that happen before the ERP changed anything: the key may be used again. */
const NOTHING_APPLIED = new Set([
  'JOB_CONFLICT',
  'JOB_TRANSITION_INVALID',
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'ERP_REJECTED',
]);

/** The request as its user sent it: one key, one request, whoever else uses the key. */
export const fingerprintOf = (p: Principal, request: unknown) => fingerprint(p.userId, request);

/** The print of rows stored before the primitive (its body's keys unsorted): they still replay. */
const earlierPrintOf = (p: Principal, request: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([p.userId, request]))
    .digest('hex');

export async function runMutation<R>(
  deps: { db: Db; audit: AuditLog },
  ctx: MutationContext,
  plan: MutationPlan<R>,
): Promise<Answer> {
  const tenantId = ctx.principal.tenantId;
  const key = ctx.idempotencyKey;
  let marker: string = randomUUID();
  let recovering = false;
  let baseVersion = plan.baseVersion;
  if (key) {
    const fp = fingerprintOf(ctx.principal, plan.request);
    const earlierFp = earlierPrintOf(ctx.principal, plan.request);
    const seen = await withTenant(deps.db, tenantId, async (tx) => {
      const row = await lockRequest(tx, key);
      if (!row) return undefined;
      if (row.state === 'done') return { answer: replayStored(row, fp, earlierFp) };
      if (row.fingerprint !== fp && row.fingerprint !== earlierFp) throw keyReused();
      if (row.lease_live) throw requestInProgress();
      await renewLease(tx, key, LEASE_SECONDS);
      return { intent: { marker: row.marker, baseVersion: row.base_version } };
    });
    if (seen?.answer) return seen.answer;
    if (seen?.intent) {
      ({ marker, baseVersion } = seen.intent);
      recovering = true;
    } else {
      if (ctx.ifMatch && plan.checkVersion) await plan.checkVersion(ctx.ifMatch);
      const inserted = await withTenant(deps.db, tenantId, async (tx) => {
        const ok = await insertIntent(tx, {
          tenantId,
          key,
          fingerprint: fp,
          marker,
          baseVersion,
          leaseSeconds: LEASE_SECONDS,
        });
        if (ok && plan.reserve) await plan.reserve(tx);
        return ok;
      });
      if (!inserted) throw requestInProgress();
    }
  } else {
    if (ctx.ifMatch && plan.checkVersion) await plan.checkVersion(ctx.ifMatch);
    if (plan.reserve) await withTenant(deps.db, tenantId, (tx) => plan.reserve!(tx));
  }

  const lease = key
    ? {
        forget: () => withTenant(deps.db, tenantId, (tx) => forgetIntent(tx, key)),
        release: () => withTenant(deps.db, tenantId, (tx) => releaseLease(tx, key)),
      }
    : undefined;
  const outcome = await applyUnderLease(
    lease,
    () => plan.apply({ marker, recovering, baseVersion }),
    (e) => e instanceof AppError && NOTHING_APPLIED.has(e.code),
  );

  return withTenant(deps.db, tenantId, async (tx) => {
    const done = await plan.commit(tx, outcome, marker);
    await deps.audit.record(tx, {
      tenantId,
      actor: ctx.actor ?? { kind: 'user', id: ctx.principal.userId },
      action: plan.action,
      target: done.target,
      ...(ctx.ip ? { ip: ctx.ip } : {}),
      detail: { ...done.detail, ...(key ? { idempotency_key: key } : {}), ...(recovering ? { recovered: true } : {}) },
    });
    if (key) await storeAnswer(tx, key, done.outcome, done.body);
    return { outcome: done.outcome, body: done.body, replayed: false };
  });
}
