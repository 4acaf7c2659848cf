/**
 * Outbound webhooks as the control plane answers them (`/api/tenants/{id}/webhooks`): an endpoint,
 * the secret shown once, and a line of the delivery log. Shared by the control plane and the
 * console's Developers screen (which also lists the event names for its checkboxes).
 */
import type { WebhookEventType } from './outbox-topics.js';

export { WEBHOOK_EVENT_TYPES } from './outbox-topics.js';

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  /** `owner` (switched off) or `gone` (the receiver answered 410); null while enabled. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** The answer of create and rotate: the only time the signing secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  secret: string;
}

export interface WebhookDeliveryView {
  id: number;
  event_type: string;
  webhook_id: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
}
