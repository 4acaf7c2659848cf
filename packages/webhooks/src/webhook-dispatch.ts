/**
 * The worker's side of outbound webhooks, run by the outbox relay:
 *
 * - `fanOut` (topic webhook.event): one delivery row and one webhook.delivery outbox row per enabled
 *   endpoint subscribed to the event, in one transaction; run again, it adds nothing (the delivery is
 *   unique per endpoint and event, the outbox row per delivery). A tenant's events fan out in order.
 * - `deliver` (topic webhook.delivery): one signed POST. 2xx is delivered; 410 Gone disables the
 *   endpoint; anything else is retried by the relay's backoff until its last attempt, then failed.
 *   Deliveries to one endpoint go out in order: a later one waits (RetryLater, not an attempt) while
 *   an earlier one is neither delivered nor given up. A disabled endpoint is sent nothing.
 */
import { randomUUID } from 'node:crypto';

import {
  TOPIC_WEBHOOK_DELIVERY,
  TOPIC_WEBHOOK_EVENT,
  type WebhookDeliveryJob,
  type WebhookEventPayload,
} from '@platform/contracts';
import type { Db, Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';
import { earlierUnfinished, enqueue, PermanentFailure, RetryLater } from '@platform/outbox';
import type { SecretBox } from '@platform/secrets';
import { assertTenantFeature } from '@platform/tenancy';

import { earlierUnsettled, findDelivery, insertDelivery, recordAttempt, settleUnsent } from './deliveries.repo.js';
import { findEndpoint, hasSubscribers, subscribedEndpoints, updateEndpoint } from './endpoints.repo.js';
import { type AttemptResult, postSigned, type SignedPost } from './signed-post.js';
import { openWebhookSecret } from './webhook-secret.js';
import { deliveryRefusal } from './webhook-url.js';

export interface WebhookDispatchOptions {
  db: Db;
  box: SecretBox;
  /** The relay's last attempt (OUTBOX_MAX_ATTEMPTS of the webhook relay): then the delivery is failed. */
  maxAttempts: number;
  /** How long a delivery waits before looking again whether the earlier ones are settled. */
  orderWaitMs: number;
  timeoutMs: number;
  /** Receivers on loopback addresses are allowed (embedded and development setups: WEBHOOK_ALLOW_LOOPBACK). */
  allowLoopback: boolean;
  /** Asks the relay to poll now (new deliveries were queued). */
  wake?: () => void;
  now?: () => Date;
  post?: (p: SignedPost) => Promise<AttemptResult>;
}

/**
 * Queues an event in the producer's transaction; a retried write with the same key queues nothing,
 * and neither does an event no enabled endpoint of the tenant takes (most tenants have none).
 */
export async function enqueueWebhookEvent(
  tx: Queryable,
  tenantId: string,
  e: WebhookEventPayload,
): Promise<number | null> {
  if (!(await hasSubscribers(tx, tenantId, e.type))) return null;
  return enqueue(tx, { tenantId, topic: TOPIC_WEBHOOK_EVENT, dedupeKey: `webhook-event:${e.eventKey}`, payload: e });
}

async function hasApiAccess(tx: Queryable, tenantId: string): Promise<boolean> {
  try {
    await assertTenantFeature(tx, tenantId, 'api_access');
    return true;
  } catch (e) {
    if (e instanceof AppError && e.code === 'PLAN_FEATURE_MISSING') return false;
    throw e;
  }
}

export class WebhookDispatch {
  constructor(private readonly o: WebhookDispatchOptions) {}

  /**
   * `eventRowId`: the event's outbox row. A tenant's events fan out one after the other in the order
   * they were queued (an earlier one still waiting holds this one back), so delivery ids follow the
   * events' order even when the relay claims several events at once.
   */
  async fanOut(
    tenantId: string,
    e: WebhookEventPayload,
    eventRowId: number,
  ): Promise<{ deliveries: number; skipped?: string }> {
    if (await earlierUnfinished(this.o.db, tenantId, TOPIC_WEBHOOK_EVENT, eventRowId))
      throw new RetryLater('an earlier event of this tenant is not fanned out yet', this.o.orderWaitMs);
    const out = await this.o.db.transaction(async (tx) => {
      // A plan without API access (a downgrade) keeps its endpoints but is sent nothing.
      if (!(await hasApiAccess(tx, tenantId))) return { deliveries: 0, skipped: 'plan' };
      let deliveries = 0;
      for (const ep of await subscribedEndpoints(tx, tenantId, e.type)) {
        const id = await insertDelivery(tx, {
          tenantId,
          endpointId: ep.id,
          eventKey: e.eventKey,
          eventType: e.type,
          webhookId: `msg_${randomUUID().replace(/-/g, '')}`,
          occurredAt: e.occurredAt,
          data: e.data,
        });
        if (id === null) continue;
        await enqueue(tx, {
          tenantId,
          topic: TOPIC_WEBHOOK_DELIVERY,
          aggregateId: ep.id,
          dedupeKey: `webhook-delivery:${id}`,
          payload: { deliveryId: id },
        });
        deliveries++;
      }
      return { deliveries };
    });
    if (out.deliveries) this.o.wake?.();
    return out;
  }

  /** One attempt of one delivery; `attempt` is the outbox row's attempt number. */
  async deliver(job: WebhookDeliveryJob, attempt: number): Promise<Record<string, unknown>> {
    const { db } = this.o;
    const d = await findDelivery(db, job.deliveryId);
    if (!d) return { skipped: 'delivery removed with its endpoint' };
    // The relay may hand a row over again after a crash; a settled delivery is only sent again on replay.
    if (!job.replay && d.settled_at) return { skipped: `already ${d.status}` };
    const ep = await findEndpoint(db, d.tenant_id, d.endpoint_id);
    if (!ep) return { skipped: 'endpoint removed' };
    if (!ep.enabled) {
      await settleUnsent(db, d.id, 'endpoint disabled');
      return { skipped: 'endpoint disabled' };
    }
    if (!job.replay && (await earlierUnsettled(db, ep.id, d.id)))
      throw new RetryLater('an earlier delivery to this endpoint is still being retried', this.o.orderWaitMs);
    const body = JSON.stringify({ type: d.event_type, timestamp: d.occurred_at.toISOString(), data: d.data });
    const secret = openWebhookSecret(this.o.box, d.tenant_id, ep.id, ep.secret_enc);
    const at = this.o.now?.() ?? new Date();
    const post = this.o.post ?? ((p: SignedPost) => postSigned(p));
    // Checked at every attempt: the name may resolve elsewhere than when the endpoint was saved.
    const refused = await deliveryRefusal(ep.url, this.o.allowLoopback);
    const r = refused
      ? { code: null, durationMs: 0, error: refused }
      : await post({ url: ep.url, webhookId: d.webhook_id, body, secret, at, timeoutMs: this.o.timeoutMs });
    const base = { code: r.code, durationMs: r.durationMs, error: r.error };
    if (r.code !== null && r.code >= 200 && r.code < 300) {
      await recordAttempt(db, d.id, { ...base, status: 'delivered', settle: true });
      return { delivered: r.code, webhook_id: d.webhook_id };
    }
    if (r.code === 410) {
      await db.transaction(async (tx) => {
        await recordAttempt(tx, d.id, {
          ...base,
          error: 'the receiver answered 410 Gone',
          status: 'failed',
          settle: true,
        });
        await updateEndpoint(tx, d.tenant_id, ep.id, { enabled: false, disabledReason: 'gone' });
      });
      return { gone: true, endpoint_disabled: ep.id };
    }
    const last = attempt >= this.o.maxAttempts;
    const why = r.error ?? `the receiver answered ${r.code}`;
    await recordAttempt(db, d.id, { ...base, error: why, status: last ? 'failed' : 'pending', settle: last });
    if (last) throw new PermanentFailure(`webhook delivery ${d.id} failed: ${why}`);
    throw new Error(`webhook delivery ${d.id}: ${why}`);
  }
}
