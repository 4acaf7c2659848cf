// Email capability (docs/email.md).
export * from './email.config.js';
export { composeEmail, createPrimarySender, createSecondarySender, type EmailServices } from './email.compose.js';
export {
  EmailOutboxService,
  senderFor,
  type Accepted,
  type EmailRequest,
  type PlatformSender,
} from './email-outbox.service.js';
export { EmailDeliveryService, type DeliveryOutcome } from './delivery/email-delivery.service.js';
export { FailoverSender, type BreakerState, type FailoverResult } from './delivery/failover.sender.js';
export { createEmailLanes, startEmailLanes, type EmailLanes } from './delivery/email-lanes.js';
export { SuppressionService } from './suppression/suppression.service.js';
export type { Suppression } from './suppression/suppression.repo.js';
export { EmailWebhookService, type FeedbackOutcome } from './webhooks/email-webhook.service.js';
export { composeEmailWebhooks, emailWebhookReceivers } from './webhooks/email-webhooks.compose.js';
export { registerEmailWebhooks } from './webhooks/email-webhook.plugin.js';
export { registerEmailUnsubscribe } from './unsubscribe/unsubscribe.plugin.js';
export { type EmailCategory, UNSUBSCRIBE_PATH } from './unsubscribe/unsubscribe.js';
export { TEMPLATE_NAMES, type TemplateName } from './templates/templates.js';
export { renderTemplate, sampleData } from './templates/render.js';
export { brandOf, type Brand } from './templates/brand.js';
// tenant_settings belongs to packages/tenancy; re-exported for the email package's callers.
export {
  type BrandingInput,
  type EmailSettings,
  getTenantSettings,
  type SendingDomain,
  setEmailSettings,
  type TenantSettings,
  upsertTenantSettings,
} from '@platform/tenancy';
export { registerEmailAdmin, type AdminGuard } from './admin/email-admin.routes.js';
export { EmailAdminService } from './admin/email-admin.service.js';
export { composeEmailAdmin, sendingDomainsFrom } from './admin/email-admin.compose.js';
export { SendingDomainService } from './domains/sending-domains.service.js';
