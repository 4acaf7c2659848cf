export * from './outbox-topics.js';
export * from './outbox-payloads.js';
export type { WebhookDeliveryView, WebhookEndpointView, WebhookEndpointWithSecret } from './webhook.js';
export type {
  AccountingState,
  ChatFlags,
  IntegrationsView,
  IntegrationTestOutcome,
  SmsLineView,
} from './integrations.js';
