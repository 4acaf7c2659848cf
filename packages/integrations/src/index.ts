export { IntegrationSettingsService, type PhoneNormalizer } from './settings/integration-settings.service.js';
export * from './settings/settings.schemas.js';
export type { AccountingRow, SmsLineRow } from './settings/settings.repo.js';
