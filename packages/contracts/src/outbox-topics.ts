/**
 * Outbox topics and their payloads: what the landing host commits and the worker delivers. The
 * payload carries everything delivery needs, so the worker never reads another app's tables.
 */
import type { FormSource } from '@platform/attribution';

export const TOPIC_ESTIMATE = 'submission.estimate';
export const TOPIC_HELPDESK = 'submission.helpdesk';
export const TOPIC_CONVERSION = 'conversions.lead';

import type { Attribution } from './attribution-fields.js';

export { ATTRIBUTION_FIELDS, type Attribution, type AttributionField } from './attribution-fields.js';

export interface EstimatePayload {
  submissionId: string;
  /** ERP database of the tenant (null: the platform's default ERP_DB). */
  erpDb: string | null;
  /** The tenant whose site took the form (resolved by host); absent on rows queued before tenants had sites. */
  tenantId?: string;
  /** That tenant's site name, the one in the `SITE: …` tag. */
  siteName?: string;
  contact: { name: string; email: string | null; phone: string | null; zip: string | null };
  products: string[];
  message: string | null;
  formSource: FormSource;
  attribution: Attribution;
  /** Lead tags decided at intake (`SITE: …`, `LP: …`, `PHONE CALLBACK`). */
  tags: string[];
  gpc: boolean;
  submittedAt: string;
}

export interface HelpdeskPayload {
  submissionId: string;
  erpDb: string | null;
  /** The tenant whose site took the form; absent on rows queued before tenants had sites. */
  tenantId?: string;
  siteName?: string;
  /** The tenant's helpdesk team in its ERP (tenants.helpdesk_team_id); null or absent: the first team. */
  helpdeskTeamId?: number | null;
  contact: { name: string; email: string; phone: string | null };
  subject: string;
  message: string;
  submittedAt: string;
}

/** Who converted, raw (unhashed): the conversions port's adapters hash what their platform requires. */
export interface ConversionUser {
  email?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
  clientIpAddress?: string;
  clientUserAgent?: string;
  /** Meta click-id cookie `_fbc`, sent as is. */
  fbc?: string;
  /** Meta browser-id cookie `_fbp`, sent as is. */
  fbp?: string;
}

export interface ConversionPayload {
  eventId: string;
  eventTime: number;
  eventSourceUrl: string;
  user: ConversionUser;
  customData?: Record<string, unknown>;
}

/** Domain events found by the ERP change feed (apps/worker change-feed). */
export const TOPIC_FSM_STAGE_CHANGED = 'erp.fsm_stage_changed';
export const TOPIC_SALE_CONFIRMED = 'erp.sale_confirmed';
export const TOPIC_INVOICE_POSTED = 'erp.invoice_posted';
export const TOPIC_PO_CONFIRMED = 'erp.po_confirmed';
export const ERP_EVENT_TOPICS = [
  TOPIC_FSM_STAGE_CHANGED,
  TOPIC_SALE_CONFIRMED,
  TOPIC_INVOICE_POSTED,
  TOPIC_PO_CONFIRMED,
] as const;
export type ErpEventTopic = (typeof ERP_EVENT_TOPICS)[number];

export interface ErpEventPayload {
  erpDb: string;
  model: string;
  recordId: number;
  field: string;
  old: string | null;
  new: string | null;
  oldLabel: string | null;
  newLabel: string | null;
  writeDate: string;
  /** Fields of the record at the time (many2ones as [id, name]). */
  record: Record<string, unknown>;
}

/** Work derived from an ERP event, one job each so each retries on its own. */
export const TOPIC_CHAT_NOTIFY = 'chat.notify';
export const TOPIC_ACCOUNTING_PUSH_INVOICE = 'accounting.push_invoice';
export const TOPIC_ACCOUNTING_WEBHOOK = 'accounting.webhook';
/**
 * A customer payment or credit note posted in the ERP, to be sent to the accounting provider (the
 * change feed's event of it, or the reconciliation's for one it missed; payload: ErpEventPayload).
 */
export const TOPIC_ACCOUNTING_PUSH_MONEY = 'accounting.push_money';
export const TOPIC_SMS_SEND = 'sms.send';
/** An inbound SMS stored from the provider's notice, to be posted in the ERP. */
export const TOPIC_SMS_INBOUND = 'sms.inbound';

/** sms.send and sms.inbound: the message row (sms_messages) the job works on. */
export interface SmsJobPayload {
  messageId: string;
}

/** accounting.webhook: one provider INVOICE UPDATE notice, to be turned into ERP payments. */
export interface AccountingWebhookJob {
  providerTenantId: string;
  invoiceId: string;
  eventDateUtc: string;
}

export interface DerivedJobPayload {
  eventTopic: ErpEventTopic;
  event: ErpEventPayload;
}

/**
 * Email (packages/email): one topic per lane, each relayed by its own worker lane so transactional
 * mail (password reset, portal links) never waits behind bulk mail. Payload: `EmailMessage`.
 */
export const TOPIC_EMAIL_TRANSACTIONAL = 'email.transactional';
export const TOPIC_EMAIL_BULK = 'email.bulk';

/**
 * email.transactional and email.bulk: the composed message. The same shape as the email port's
 * `EmailMessage` (packages/providers); the typechecker checks both directions where they meet.
 */
export interface EmailJobPayload {
  id: string;
  tenantId: string;
  key: string;
  lane: 'transactional' | 'bulk';
  from: { address: string; name?: string };
  to: { address: string; name?: string };
  replyTo?: { address: string; name?: string };
  subject: string;
  text: string;
  html: string;
  tags: string[];
}

/**
 * Outbound webhooks (packages/webhooks): a producer queues one `webhook.event` in its own
 * transaction; the worker fans it out to one `webhook.delivery` per subscribed, enabled endpoint.
 */
export const TOPIC_WEBHOOK_EVENT = 'webhook.event';
export const TOPIC_WEBHOOK_DELIVERY = 'webhook.delivery';

/** The events an endpoint can subscribe to (docs/control-plane.md, "Outbound webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'quote.sent',
  'quote.accepted',
  'job.scheduled',
  'job.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** webhook.event: what happened, once per `eventKey` (the outbox dedupe key is built from it). */
export interface WebhookEventPayload {
  type: WebhookEventType;
  /** Stable for the change that made it (`lead.created:<submission id>`): a retried write is one event. */
  eventKey: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** webhook.delivery: one delivery row (webhook_deliveries) to send; `replay` marks a replay from the log. */
export interface WebhookDeliveryJob {
  deliveryId: number;
  replay?: boolean;
}
