/**
 * One change of an existing ERP order (schedule, assign, stage, complete) through runMutation: the
 * values to write and/or the order method to call, and how to tell the change is already there, so a
 * request taking over a lost one applies it only when it is absent.
 */
import type { WebhookEventPayload } from '@platform/contracts';
import type { Db, Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';
import { enqueueWebhookEvent } from '@platform/webhooks';

import type { AuditLog } from '../audit/audit-log.js';
import { readOrders } from './erp/fsm-orders.js';
import { type Answer, type MutationContext, runMutation } from './job-mutation.js';
import type { JobsReader, LoadedJob } from './jobs.service.js';
import type { ErpJob } from './jobs.types.js';

/** What the customer may be told of a change (the messages feature: docs/messages.md). */
export type JobMessage = { what: 'scheduled' | 'cancelled' | 'completed' } | { what: 'on_my_way'; etaMinutes: number };

/** Told of a change the customer may hear of, in the transaction that records it (messages.compose.ts). */
export interface JobMessages {
  jobChanged(tx: Queryable, tenantId: string, jobId: string, order: ErpJob, m: JobMessage): Promise<void>;
}

export interface OrderChange {
  /** Whether the order already shows this change (found again after a lost reply). */
  applied(o: ErpJob): boolean;
  /** Refusals that depend on the order's stage (JOB_TRANSITION_INVALID). */
  check?(): void;
  /** Apply again even if the order changed since the intent (completing goes on regardless). */
  alwaysReapply?: boolean;
  /** Values to write, a method to call, or a method called after writing values. */
  vals: Record<string, unknown> | string | [string, Record<string, unknown>];
  commit?(tx: Queryable): Promise<LoadedJob['row']>;
  detail: Record<string, unknown>;
  /** The outbound webhook event of the change, queued with its commit (keyed: a retry queues it once). */
  event?: WebhookEventPayload;
  /** The customer message the change schedules or cancels, with its commit. */
  message?: JobMessage;
}

/** Told of a job completed, in the transaction that records it (the final invoice queues its job there). */
export interface JobCompletion {
  jobCompleted(tx: Queryable, tenantId: string, jobId: string): Promise<void>;
}

export function changeOrder(
  deps: {
    db: Db;
    audit: AuditLog;
    completion?: (() => JobCompletion) | undefined;
    messages?: (() => JobMessages) | undefined;
  },
  reader: JobsReader,
  ctx: MutationContext,
  j: LoadedJob,
  w: OrderChange & { action: string; request: unknown },
): Promise<Answer> {
  const reread = async () => {
    const [o] = await readOrders(j.erp, [j.order.erpId]);
    if (!o) throw new AppError('NOT_FOUND', 'No such job.');
    return o;
  };
  return runMutation(deps, ctx, {
    action: w.action,
    request: w.request,
    baseVersion: j.order.version,
    checkVersion: (v) => reader.assertVersion(j, v),
    apply: async ({ recovering, baseVersion }) => {
      const current = recovering ? await reread() : j.order;
      if (recovering && w.applied(current)) return current;
      if (recovering && !w.alwaysReapply && current.version !== baseVersion)
        await reader.assertVersion({ ...j, order: current }, baseVersion ?? '');
      w.check?.();
      const [method, vals] =
        typeof w.vals === 'string' ? [w.vals, undefined] : Array.isArray(w.vals) ? w.vals : [undefined, w.vals];
      // Values first: complete writes the resolution, then action_complete moves the stage.
      if (vals) await j.erp.write('fsm.order', [j.order.erpId], vals);
      if (method) await j.erp.call('fsm.order', method, [[j.order.erpId]]);
      return reread();
    },
    commit: async (tx, order) => {
      const row = w.commit ? await w.commit(tx) : j.row;
      if (w.event) await enqueueWebhookEvent(tx, ctx.principal.tenantId, w.event);
      if (w.event?.type === 'job.completed')
        await deps.completion?.().jobCompleted(tx, ctx.principal.tenantId, j.row.id);
      if (w.message) await deps.messages?.().jobChanged(tx, ctx.principal.tenantId, j.row.id, order, w.message);
      const body = await reader.view(tx, { row, order });
      return { outcome: 'updated', body, target: { type: 'job', id: j.row.id }, detail: w.detail };
    },
  });
}
