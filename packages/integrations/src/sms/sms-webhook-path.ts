/**
 * Where the SMS provider posts a tenant's notices on the ERP host. The provider signs this URL, so a
 * tenant's segment is part of what only that tenant's signing key can satisfy. The unsegmented path
 * stays the default tenant's (installs from before tenants had their own URLs).
 */
export const DEFAULT_SMS_WEBHOOK_PATH = '/sms/webhook/sms';

/** `/sms/webhook/<slug>/sms` for a tenant named in the URL; the default path without one. */
export const smsWebhookPath = (tenantSlug?: string): string =>
  tenantSlug ? `/sms/webhook/${encodeURIComponent(tenantSlug)}/sms` : DEFAULT_SMS_WEBHOOK_PATH;
