/**
 * The outbound webhook events of jobs (docs/control-plane.md, "Outbound webhooks"), queued with the
 * change's commit. Their keys make a retried request the same event.
 */
import type { WebhookEventPayload } from '@platform/contracts';

/** job.scheduled, once per job and time (a new time is another event). */
export function jobScheduled(
  id: string,
  erpOrderId: number,
  start: string,
  end: string,
  at: Date,
): WebhookEventPayload {
  return {
    type: 'job.scheduled',
    eventKey: `job.scheduled:${id}:${start}:${end}`,
    occurredAt: at.toISOString(),
    data: { job_id: id, erp_order_id: erpOrderId, scheduled_start: start, scheduled_end: end },
  };
}

/** job.completed, once per job however it got to done (complete, or a stage move to done). */
export function jobCompleted(id: string, erpOrderId: number, resolution: string | null, at: Date): WebhookEventPayload {
  return {
    type: 'job.completed',
    eventKey: `job.completed:${id}`,
    occurredAt: at.toISOString(),
    data: { job_id: id, erp_order_id: erpOrderId, resolution },
  };
}
