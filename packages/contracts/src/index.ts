export * from './outbox-topics.js';
export * from './outbox-payloads.js';
export * from './order-won.js';
export * from './deposit-erp.js';
export * from './supply-orders.js';
export {
  type InvoiceAutoJob,
  type InvoiceCardPaymentJob,
  type InvoiceCardRefundJob,
  TOPIC_INVOICE_AUTO,
  TOPIC_INVOICE_CARD_PAYMENT,
  TOPIC_INVOICE_CARD_REFUND,
} from './invoicing.js';
export type { WebhookDeliveryView, WebhookEndpointView, WebhookEndpointWithSecret } from './webhook.js';
export type {
  AccountingState,
  ChatFlags,
  IntegrationsView,
  IntegrationTestOutcome,
  SmsLineView,
  TaxMappingInput,
  TaxMappingRow,
  TaxMappingView,
  TaxRateChoice,
} from './integrations.js';
export {
  API_KEY_SCOPE_CHOICES,
  type ApiKeyCreated,
  type ApiKeyView,
  type AuditEntryView,
  DEFAULT_API_KEY_SCOPES,
  type PendingInvitationView,
} from './console-settings.js';
export {
  DEPOSIT_FIXED_MAX_MINOR,
  type DepositRule,
  type DepositRuleKind,
  type PaymentsConnectOutcome,
  type PaymentsView,
} from './payments.js';
export * from './inventory.js';
