/** What the ERP host's integration routes and CLI need (composed in deps.ts), over the platform database. */
import type { AccountingServices, IntegrationSettingsService, SmsService } from '@platform/integrations';

/** A tenant as an integration URL or the CLI names it (its slug). */
export interface IntegrationTenant {
  id: string;
  slug: string;
  isDefault: boolean;
}

export interface IntegrationsDeps {
  /** The host's own tenant: the unsegmented URLs (`/acct/webhook`, `/sms/webhook/sms`) and its REST credentials. */
  tenantId: string;
  /** The tenant a URL segment or `?tenant=` names, by slug; undefined when there is none (or it is not active). */
  tenantBySlug(slug: string): Promise<IntegrationTenant | undefined>;
  settings: IntegrationSettingsService;
  sms: SmsService;
  /** The accounting connection routes (accounting.routes.ts); not mounted when absent. */
  accounting?: {
    services: AccountingServices;
    /** Checks a login and password (or API key) of the tenant's own ERP; the login must also be in `adminLogins`. */
    verifyAdmin(tenantId: string, login: string, password: string): Promise<boolean>;
    adminLogins: string[];
    /** ERP_PUBLIC_URL: the base the OAuth callback is compared against; else the request's host. */
    publicUrl?: string;
  };
}
