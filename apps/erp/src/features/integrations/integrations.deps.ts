/** The ERP host's integration services (settings, SMS), over the platform database. */
import type { Db } from '@platform/db';
import { chatOrigins, createAccountingServices, IntegrationSettingsService, SmsService, type AccountingServices } from '@platform/integrations';
import { justCallSmsAdapters, normalizeSmsPhone, xeroAccountingAdapters } from '@platform/providers';
import { secretBoxFromConfig } from '@platform/secrets';
import { ConfigError } from '@platform/kernel';
import type { ErpConfig } from '../../erp.config.js';

export interface IntegrationsDeps {
  tenantId: string;
  settings: IntegrationSettingsService;
  sms: SmsService;
  /** The accounting connection routes (accounting.routes.ts); not mounted when absent. */
  accounting?: {
    services: AccountingServices;
    /** Checks an ERP login and password (or API key); the login must also be in `adminLogins`. */
    verifyAdmin(login: string, password: string): Promise<boolean>;
    adminLogins: string[];
    /** ERP_PUBLIC_URL: the base the OAuth callback is compared against; else the request's host. */
    publicUrl?: string;
  };
}

export function composeIntegrations(
  config: ErpConfig,
  db: Db,
  tenantId: string,
  verifyLogin?: (login: string, password: string) => Promise<boolean>,
): IntegrationsDeps {
  let box;
  try {
    box = secretBoxFromConfig(config);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  ${(e as Error).message}`);
  }
  const settings = new IntegrationSettingsService(db, box, (raw) => normalizeSmsPhone(raw, config.SMS_DEFAULT_REGION), chatOrigins(config.CHAT_ALLOWED_ORIGINS));
  const accounting = verifyLogin
    ? {
        services: createAccountingServices(db, settings, xeroAccountingAdapters({ loginUrl: config.ACCT_LOGIN_URL, identityUrl: config.ACCT_IDENTITY_URL, apiUrl: config.ACCT_API_URL })),
        verifyAdmin: verifyLogin,
        adminLogins: config.ACCT_ADMIN_LOGINS.split(',').map((l) => l.trim()).filter(Boolean),
        ...(config.ERP_PUBLIC_URL ? { publicUrl: config.ERP_PUBLIC_URL } : {}),
      }
    : undefined;
  return { tenantId, settings, sms: new SmsService(db, settings, justCallSmsAdapters({ baseUrl: config.SMS_API_URL })), ...(accounting ? { accounting } : {}) };
}
