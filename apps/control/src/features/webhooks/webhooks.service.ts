/**
 * A tenant's outbound webhook endpoints and their delivery log (docs/control-plane.md, "Outbound
 * webhooks"), for owners and admins of a plan with `api_access`. Every change runs in one
 * tenant-scoped transaction with its audit entry. The signing secret is answered once, when made
 * (create, rotate), and kept only sealed.
 */
import { randomUUID } from 'node:crypto';

import { TOPIC_WEBHOOK_DELIVERY, type WebhookEventType } from '@platform/contracts';
import { type Db, type Queryable, withTenant } from '@platform/db';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import { AppError, type WriteAnswer } from '@platform/kernel';
import { enqueue } from '@platform/outbox';
import type { SecretBox } from '@platform/secrets';
import {
  deleteEndpoint,
  findEndpoint,
  findEndpointDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  markReplaying,
  newWebhookSecret,
  sealWebhookSecret,
  setEndpointSecret,
  updateEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookUrlAllowed,
} from '@platform/webhooks';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';

export interface Actor {
  principal: Principal;
  ip: string | undefined;
}

export interface EndpointInput {
  url: string;
  events: WebhookEventType[];
  description?: string | null | undefined;
}

export interface EndpointChange {
  url?: string | undefined;
  events?: WebhookEventType[] | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
}

const notFound = () => new AppError('NOT_FOUND', 'No such webhook endpoint.');
/** The audit log keeps the host only: receivers' URLs often carry a token in their path or query. */
const hostOf = (url: string) => new URL(url).host;

export class WebhooksService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly plans: PlanLimits,
    private readonly audit: AuditLog,
    private readonly opts: { allowLoopback: boolean },
  ) {}

  /** https to a public address; loopback receivers too where the setting allows them (webhook-url.ts). */
  acceptsUrl(raw: string): boolean {
    return webhookUrlAllowed(raw, this.opts.allowLoopback);
  }

  private scoped<T>(tenantId: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return withTenant(this.db, tenantId, async (tx) => {
      await this.plans.assertFeature(tx, tenantId, 'api_access');
      return fn(tx);
    });
  }

  private record(tx: Queryable, actor: Actor, action: string, id: string | number, detail?: Record<string, unknown>) {
    return this.audit.record(tx, {
      tenantId: actor.principal.tenantId,
      actor: { kind: 'user', id: actor.principal.userId },
      action,
      target: { type: action.startsWith('webhook.delivery') ? 'webhook_delivery' : 'webhook_endpoint', id },
      ...(actor.ip ? { ip: actor.ip } : {}),
      ...(detail ? { detail } : {}),
    });
  }

  list(tenantId: string): Promise<WebhookEndpointRow[]> {
    return this.scoped(tenantId, (tx) => listEndpoints(tx, tenantId));
  }

  get(tenantId: string, id: string): Promise<WebhookEndpointRow> {
    return this.scoped(tenantId, async (tx) => (await findEndpoint(tx, tenantId, id)) ?? Promise.reject(notFound()));
  }

  async create(actor: Actor, input: EndpointInput): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
    const tenantId = actor.principal.tenantId;
    const id = randomUUID();
    const secret = newWebhookSecret();
    return this.scoped(tenantId, async (tx) => {
      const endpoint = await insertEndpoint(tx, {
        id,
        tenantId,
        url: input.url,
        description: input.description ?? null,
        events: [...new Set(input.events)],
        secretEnc: sealWebhookSecret(this.box, tenantId, id, secret),
      });
      await this.record(tx, actor, 'webhook.create', id, { host: hostOf(input.url), events: endpoint.events });
      return { endpoint, secret };
    });
  }

  async change(actor: Actor, id: string, c: EndpointChange): Promise<WebhookEndpointRow> {
    const tenantId = actor.principal.tenantId;
    return this.scoped(tenantId, async (tx) => {
      const row = await updateEndpoint(tx, tenantId, id, {
        ...(c.url !== undefined ? { url: c.url } : {}),
        ...(c.events !== undefined ? { events: [...new Set(c.events)] } : {}),
        ...(c.description !== undefined ? { description: c.description } : {}),
        ...(c.enabled !== undefined ? { enabled: c.enabled, disabledReason: 'owner' } : {}),
      });
      if (!row) throw notFound();
      await this.record(tx, actor, 'webhook.update', id, {
        ...c,
        ...(c.url ? { url: undefined, host: hostOf(c.url) } : {}),
      });
      return row;
    });
  }

  async rotateSecret(actor: Actor, id: string): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
    const tenantId = actor.principal.tenantId;
    const secret = newWebhookSecret();
    return this.scoped(tenantId, async (tx) => {
      if (!(await setEndpointSecret(tx, tenantId, id, sealWebhookSecret(this.box, tenantId, id, secret))))
        throw notFound();
      await this.record(tx, actor, 'webhook.rotate_secret', id);
      return { endpoint: (await findEndpoint(tx, tenantId, id))!, secret };
    });
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const tenantId = actor.principal.tenantId;
    await this.scoped(tenantId, async (tx) => {
      if (!(await deleteEndpoint(tx, tenantId, id))) throw notFound();
      await this.record(tx, actor, 'webhook.delete', id);
    });
  }

  deliveries(
    tenantId: string,
    endpointId: string,
    page: { page: number; page_size: number },
  ): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
    return this.scoped(tenantId, async (tx) => {
      if (!(await findEndpoint(tx, tenantId, endpointId))) throw notFound();
      return listDeliveries(tx, tenantId, endpointId, {
        limit: page.page_size,
        offset: (page.page - 1) * page.page_size,
      });
    });
  }

  /**
   * A new attempt of one delivery, with its webhook-id, signed afresh. With an Idempotency-Key the
   * first answer is replayed (one primitive, packages/intake): a retried click queues one attempt.
   */
  async replay(
    actor: Actor,
    endpointId: string,
    deliveryId: number,
    key: string | undefined,
  ): Promise<WriteAnswer<{ delivery_id: number; webhook_id: string; status: 'pending' }>> {
    const tenantId = actor.principal.tenantId;
    const route = `webhooks:replay:${endpointId}`;
    const fp = fingerprint('webhook-replay', { endpointId, deliveryId });
    return this.scoped(tenantId, async (tx) => {
      const stored = key && (await findAnswer(tx, tenantId, route, key));
      if (stored) return replayStored(stored, fp);
      const ep = await findEndpoint(tx, tenantId, endpointId);
      const d = ep && (await findEndpointDelivery(tx, tenantId, endpointId, deliveryId));
      if (!ep || !d) throw new AppError('NOT_FOUND', 'No such delivery.');
      if (!ep.enabled)
        throw new AppError('WEBHOOK_ENDPOINT_DISABLED', 'This endpoint is disabled; enable it to replay.', {
          details: { endpoint_id: ep.id, disabled_reason: ep.disabled_reason },
        });
      const body = { delivery_id: d.id, webhook_id: d.webhook_id, status: 'pending' as const };
      // The answer is stored first: a concurrent request with the key waits on it, then replays it.
      if (
        key &&
        !(await storeAnswer(tx, tenantId, route, key, { fingerprint: fp, outcome: 'created', response: body }))
      )
        return replayStored(await findAnswer(tx, tenantId, route, key).then((a) => a!), fp);
      await markReplaying(tx, d.id);
      await enqueue(tx, {
        tenantId,
        topic: TOPIC_WEBHOOK_DELIVERY,
        aggregateId: ep.id,
        payload: { deliveryId: d.id, replay: true },
      });
      await this.record(tx, actor, 'webhook.delivery.replay', d.id, { endpoint_id: ep.id, webhook_id: d.webhook_id });
      return { outcome: 'created', body, replayed: false };
    });
  }
}
