export { chatOrigins } from './settings/chat-webhook-url.js';
export { IntegrationSettingsService, type PhoneNormalizer } from './settings/integration-settings.service.js';
export * from './settings/settings.schemas.js';
export { IntegrationsOverview } from './settings/integrations-overview.js';
export type { AccountingRow, SmsLineRow } from './settings/settings.repo.js';
export {
  ChatNotifierService,
  CHAT_SPACE_LIMIT,
  spaceOf,
  type ChatPoster,
  type NotifyResult,
} from './chat/chat-notifier.service.js';
export { chatMessage, FLAG_OF, type ChatMessage } from './chat/chat-message.js';
export { SmsService, type WebhookOutcome } from './sms/sms.service.js';
export { smsOptedOut } from './sms/sms-opt-outs.repo.js';
export { queueSmsIn, SMS_BODY_MAX } from './sms/sms-queue.js';
export { DEFAULT_SMS_WEBHOOK_PATH, smsWebhookPath } from './sms/sms-webhook-path.js';
export {
  createAccountingServices,
  type AccountingServices,
  type AccountingUrls,
} from './accounting/accounting.compose.js';
export {
  AccountingConnectService,
  ACCOUNTING_SCOPES,
  type CallbackOutcome,
} from './accounting/accounting-connect.service.js';
export {
  AccountingSyncService,
  ERP_PROVIDER_INVOICE_FIELD,
  type PushResult,
} from './accounting/accounting-sync.service.js';
export {
  AccountingWebhookService,
  type AccountingWebhookJob,
  type AccountingWebhookOutcome,
} from './accounting/accounting-webhook.service.js';
export { AccountingPaymentsService, type PaymentsResult } from './accounting/accounting-reconcile.service.js';
export { AccountingResidualAudit, type ResidualAuditResult } from './accounting/accounting-residual-audit.service.js';
export { paymentRef, allocationRef } from './accounting/accounting-erp-money.js';
export { AccountingCheck } from './accounting/accounting-check.js';
export { AccountingTaxMapping } from './accounting/accounting-tax-mapping.service.js';
export { AccountingAttention, ERP_SYNC_ISSUE_FIELD } from './accounting/accounting-attention.js';
export { AccountingTokens, AccountingNotConnected, REFRESH_MARGIN_MS } from './accounting/accounting-tokens.js';
export { AccountingCalls, PROVIDER_LIMIT, RECONNECT_WAIT_MS } from './accounting/accounting-calls.js';
// Other inbound webhooks (the control plane's payments receiver) dedupe through the same table.
export { pruneWebhookReceipts, recordWebhookReceipt, webhookReceiptSeen } from './webhooks/webhook-receipts.repo.js';
