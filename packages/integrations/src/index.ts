export { IntegrationSettingsService, type PhoneNormalizer } from './settings/integration-settings.service.js';
export * from './settings/settings.schemas.js';
export type { AccountingRow, SmsLineRow } from './settings/settings.repo.js';
export { ChatNotifierService, CHAT_SPACE_LIMIT, spaceOf, type ChatPoster, type NotifyResult } from './chat/chat-notifier.service.js';
export { chatMessage, FLAG_OF, type ChatMessage } from './chat/chat-message.js';
export { SmsService, TOPIC_SMS_INBOUND, type WebhookOutcome } from './sms/sms.service.js';
