/**
 * Outbound webhooks in the worker (docs/control-plane.md, "Outbound webhooks"): the handlers of the
 * webhook relay (fan-out of an event, one signed delivery), and the `lead.created` event, queued once
 * the ERP lead exists (the lead delivery's handler), keyed by the submission so it is queued once.
 */
import {
  type EstimatePayload,
  TOPIC_WEBHOOK_DELIVERY,
  TOPIC_WEBHOOK_EVENT,
  type WebhookEventPayload,
} from '@platform/contracts';
import type { Db } from '@platform/db';
import type { OutboxHandlers } from '@platform/outbox';
import { enqueueWebhookEvent, type WebhookDispatch } from '@platform/webhooks';

import type { Delivered } from '../leads/lead-delivery.service.js';

export function webhookHandlers(dispatch: WebhookDispatch): OutboxHandlers {
  return {
    [TOPIC_WEBHOOK_EVENT]: (row) => dispatch.fanOut(row.tenant_id, row.payload, row.id),
    [TOPIC_WEBHOOK_DELIVERY]: (row) => dispatch.deliver(row.payload, row.attempts),
  };
}

export function leadCreatedEvent(p: EstimatePayload, lead: Delivered): WebhookEventPayload {
  return {
    type: 'lead.created',
    eventKey: `lead.created:${p.submissionId}`,
    occurredAt: p.submittedAt,
    data: {
      lead_id: lead.id,
      submission_id: p.submissionId,
      contact: p.contact,
      products: p.products,
      message: p.message,
      form_source: p.formSource,
      tags: p.tags,
    },
  };
}

/** After the lead exists in the ERP (first delivery or a retry that found it): its event, queued once. */
export async function queueLeadCreated(db: Db, tenantId: string, p: EstimatePayload, lead: Delivered): Promise<void> {
  await enqueueWebhookEvent(db, tenantId, leadCreatedEvent(p, lead));
}
