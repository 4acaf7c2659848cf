/** What the ERP host's integration routes and CLI need (composed in deps.ts), over the platform database. */
import type { AccountingServices, IntegrationSettingsService, SmsService } from '@platform/integrations';

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
