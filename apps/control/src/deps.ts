/**
 * Composition root of the control plane: the only place that constructs its parts (tenancy and
 * provisioning, accounts, plans, domains, the tenant-scoped ERP API, portal tokens, audit, metrics).
 * Nothing here listens: control.server.ts does.
 */

import type { Db } from '@platform/db';
import { EmailOutboxService } from '@platform/email';
import { RateLimiter } from '@platform/http-kit';
import { chatOrigins, IntegrationSettingsService } from '@platform/integrations';
import { type Clock, systemClock } from '@platform/kernel';
import { type CaptchaVerifier, normalizeSmsPhone } from '@platform/providers';
import { type SecretBox, secretBoxFromConfig } from '@platform/secrets';
import type { ObjectStore } from '@platform/storage';
import { ErpDatabases, TenantErps as RoutedTenantErps, TenantHostResolver } from '@platform/tenancy';

import { type ControlConfig, loadControlStorage } from './control.config.js';
import { erpMasterPassword, jwtSecret } from './control-keys.js';
import { type AccountServices, composeAccounts } from './features/accounts/accounts.compose.js';
import { MembersService } from './features/accounts/members.service.js';
import { dummyHash } from './features/accounts/password-hasher.js';
import { AuditLog } from './features/audit/audit-log.js';
import { type AccessTokenKeys, accessTokenKeys } from './features/auth/access-token.js';
import { BranchesService } from './features/branches/branches.service.js';
import { type CalendarDeps, composeCalendar } from './features/calendar/calendar.compose.js';
import { CrmService } from './features/crm/crm.service.js';
import { PipelineService } from './features/crm/pipeline.service.js';
import { CustomersService } from './features/customers/customers.service.js';
import { OfficeSearch } from './features/customers/office-search.service.js';
import { composePortalAndDocuments, type DocumentsService } from './features/documents/documents.compose.js';
import { ControlIntakeService } from './features/intake/intake.service.js';
import { composeIntegrations } from './features/integrations/integrations.compose.js';
import type { ControlIntegrations } from './features/integrations/integrations.service.js';
import { composeInventory, type InventoryDeps } from './features/inventory/inventory.compose.js';
import { composeInvoicing, type InvoicingDeps } from './features/invoicing/invoicing.compose.js';
import { type EmbeddedObjects, openJobObjects } from './features/jobs/job-objects.js';
import { composeJobs, type JobsFeature } from './features/jobs/jobs.compose.js';
import { composeMessages, type MessagesDeps } from './features/messages/messages.compose.js';
import { composeControlMetrics, type ControlMetrics } from './features/metrics/control-metrics.js';
import { observedTenantErps } from './features/metrics/observed-tenant-erps.js';
import { composeConsole, type ConsoleServices } from './features/onboarding/console.compose.js';
import { composePayments, type PaymentsFeature } from './features/payments/payments.compose.js';
import { type BillingPort, noChargeBilling } from './features/plans/billing.port.js';
import { PlanChanges } from './features/plans/plan-changes.service.js';
import { PlanLimits } from './features/plans/plan-limits.service.js';
import { type AppointmentDeps, composeAppointments } from './features/portal/appointment.compose.js';
import type { PortalService } from './features/portal/portal.service.js';
import { PortalLinks } from './features/portal/portal-links.js';
import { composeRecurring, type RecurringFeature } from './features/recurring/recurring.compose.js';
import { ReportsService } from './features/reports/reports.service.js';
import { PriceGridsService } from './features/sales/price-grids.service.js';
import { QuoteSending } from './features/sales/quote-sending.service.js';
import { defaultSmsLineOf } from './features/sales/quote-sms-line.js';
import { QuotesService } from './features/sales/quotes.service.js';
import { composeSignup, type SignupFeature } from './features/signup/signup.compose.js';
import { composeSupply, type SupplyDeps } from './features/supply/supply.compose.js';
import { erpRoutingReadiness, type TenantErps } from './features/tenants/tenant-erps.js';
import { TenantLifecycleService } from './features/tenants/tenant-lifecycle.service.js';
import { TenantProvisioningService } from './features/tenants/tenant-provisioning.service.js';
import { TenantPublicOrigins } from './features/tenants/tenant-public-origins.js';
import { lazySecretBox } from './lazy-secret-box.js';

export { erpMasterPassword };

/** Besides the console's services (onboarding/console.compose.ts: settings, domains, webhooks, API keys, audit reader, checklist, website). */
export interface ControlDeps
  extends ConsoleServices, InvoicingDeps, SupplyDeps, MessagesDeps, InventoryDeps, CalendarDeps, AppointmentDeps {
  config: ControlConfig;
  db: Db;
  clock: Clock;
  /** Named readiness checks for /health/ready beyond the database (each rejects when not ready). */
  readiness: Record<string, () => Promise<void>>;
  tokenKeys: AccessTokenKeys;
  /** The owner's change of plan (checked, audited, then told to the billing port). */
  planChanges: PlanChanges;
  /** A tenant's branches (multi_location): service areas by ZIP, people limited to theirs. */
  branches: BranchesService;
  plans: PlanLimits;
  audit: AuditLog;
  members: MembersService;
  erps: TenantErps;
  /** /metrics: requests, process, outbox backlog, domain states, ERP calls per tenant. */
  metrics: ControlMetrics;
  /** The tenants' photos and signatures (presigned uploads). */
  objects: ObjectStore;
  /** The local (embedded) object store's presigned URL check, served at /objects; absent with S3. */
  embeddedObjects?: EmbeddedObjects | undefined;
  jobs: JobsFeature;
  /** /jobs/{id}/series and the generator of occurrences (control.server.ts runs it periodically). */
  recurring: RecurringFeature;
  limiter: RateLimiter;
  objectStore: ObjectStore;
  intake: ControlIntakeService;
  crm: CrmService;
  /** /customers: ERP contacts with their leads, quotes, jobs, messages and notes; merging. */
  customers: CustomersService;
  /** Where sent and accepted quotes move their leads (per tenant, defaulting to the ERP's stages). */
  pipeline: PipelineService;
  /** /search: the office's global search. */
  officeSearch: OfficeSearch;
  sales: { grids: PriceGridsService; quotes: QuotesService; sending: QuoteSending };
  portal: PortalService;
  documents: DocumentsService; // PDF quotes and job reports (docs/documents.md)
  /** /reports: the summary and the funnel by source (docs/reports.md). */
  reports: ReportsService;
  /** Host → tenant (by-domain); listens for changes while the app is up (domains.routes.ts). */
  resolver: TenantHostResolver;
  /** The platform's secret box (made on first use: tests without DATA_DIR never need one). */
  box: SecretBox;
  /** The scheme, host and port tenant hosts are served on (links in emails and answers). */
  publicOrigins: TenantPublicOrigins;
  /** The routing-aware implementation behind `erps` (targets, cache invalidation). */
  tenantErps: RoutedTenantErps;
  provisioning: TenantProvisioningService;
  tenants: TenantLifecycleService;
  accounts: AccountServices;
  /** Self-serve sign-up and email verification. */
  signup: SignupFeature;
  /** The owner's console's integrations (the integrations package's services, for the signed-in tenant). */
  integrations: ControlIntegrations;
  payments: PaymentsFeature; // the tenant's payments account, deposit rule and the provider's webhook
}

export interface ComposeControlOptions {
  clock?: Clock;
  erps?: TenantErps;
  objects?: ObjectStore;
  objectStore?: ObjectStore;
  /** The embedded ERP's `db` service (tests: an ERP served on a loopback port). */
  databases?: () => ErpDatabases;
  /** Sign-up's bot check (tests: a verifier of their own). */
  captcha?: CaptchaVerifier;
  /** Where a plan change would be charged (default: the no-charge log driver, silent). */
  billing?: BillingPort;
}

export function composeControl(config: ControlConfig, db: Db, opts: ComposeControlOptions = {}): ControlDeps {
  const previous = (config.CONTROL_JWT_PREVIOUS_SECRETS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const plans = new PlanLimits();
  const metrics = composeControlMetrics(db, config.METRICS_TOKEN);
  const clock = opts.clock ?? systemClock;
  const tokenKeys = accessTokenKeys(config.CONTROL_JWT_ISSUER, jwtSecret(config), previous);
  const audit = new AuditLog();
  const box = lazySecretBox(() => secretBoxFromConfig(config));
  const tenantErps = new RoutedTenantErps(db, box, config);
  const erps = observedTenantErps(opts.erps ?? tenantErps, db, metrics.erpCalls);
  const databases =
    opts.databases ??
    (() =>
      new ErpDatabases({
        url: config.ERP_URL,
        masterPassword: erpMasterPassword(config),
        timeoutMs: config.ERP_TIMEOUT_MS,
      }));
  const members = new MembersService(plans);
  const onRoutingChanged = (id: string) => tenantErps.invalidate(id);
  // One object store for photos, signatures and quote signatures (local under DATA_DIR, or S3).
  const given = opts.objects ?? opts.objectStore;
  const opened = given ? { objects: given } : openJobObjects(config, loadControlStorage());
  const objects = opened.objects;
  const branches = new BranchesService(db, plans, audit);
  const grids = new PriceGridsService(db, audit, { branches, plans });
  const links = new PortalLinks();
  const resolver = new TenantHostResolver(db, { tenantsHost: config.TENANTS_HOST });
  void dummyHash();
  const email = new EmailOutboxService(db, {
    domain: config.EMAIL_PLATFORM_DOMAIN,
    fromName: config.EMAIL_PLATFORM_FROM_NAME,
  });
  const publicOrigins = new TenantPublicOrigins(config);
  const linkConfig = { ...config, tenantOrigin: (host: string) => publicOrigins.origin(host) };
  const pipeline = new PipelineService(db, erps, audit);
  const quotes = new QuotesService(db, clock, erps, grids, audit, {
    deposit: { rule: (t) => payments.settings.depositRule(t), currency: (t) => currencyOf(t) },
    onAccepted: (tenantId, leadId) => pipeline.follow(tenantId, leadId, 'accepted'),
  });
  const normalizePhone = (raw: string) => normalizeSmsPhone(raw, config.SMS_DEFAULT_REGION);
  const chatAllowed = chatOrigins(config.CHAT_ALLOWED_ORIGINS);
  const integrations = new IntegrationSettingsService(db, box, normalizePhone, chatAllowed);
  const crm = new CrmService(db, erps, audit, branches);
  const sending = new QuoteSending(
    db,
    clock,
    erps,
    quotes,
    links,
    audit,
    email,
    { lineOf: defaultSmsLineOf(integrations), normalize: normalizePhone },
    {
      tenantsHost: config.TENANTS_HOST,
      portalLinkDays: config.PORTAL_LINK_TTL_DAYS,
      origin: linkConfig.tenantOrigin,
      // Called at a send, long after `documents` (below) is made.
      document: (tenantId, quoteId) => documents.sentQuote(tenantId, quoteId),
      followUp: (tx, tenantId, q) => messages.scheduler.quoteSent(tx, tenantId, q),
    },
    (tenantId, leadId, event) => pipeline.follow(tenantId, leadId, event),
  );
  const accounts = composeAccounts({ db, clock, config, tokenKeys, audit, plans, email, linkConfig });
  const sessions = accounts.sessions;
  const jobs = composeJobs({
    ...{ db, erps, plans, audit, clock, objects, branches, grids, quotes },
    ...{ completion: () => invoicing, messages: () => messages.jobs },
  });
  const appointments = composeAppointments(config, { db, clock, jobs: jobs.reader, origins: publicOrigins });
  const messages = composeMessages({
    ...{ db, clock, erps, audit, email, integrations, jobs, normalize: normalizePhone },
    appointmentLink: appointments.linker,
  });
  const currencyOf = async (tenantId: string) => (await console.settings.get(tenantId)).currency;
  const invoicing = composeInvoicing(config, () => ({ ...payParts, clock, email, jobs, documents, payments }));
  const payParts = { db, audit, erps, origins: publicOrigins, currency: currencyOf, quotes, links, messages };
  const payments = composePayments(config, { ...payParts, hooks: invoicing.hooks, portal: () => portal });
  const { portal, documents } = composePortalAndDocuments(config, {
    ...{ db, clock, erps, plans, audit, objects, quotes, links, jobs: jobs.reader },
    moveLead: (tenantId, leadId, event) => pipeline.follow(tenantId, leadId, event),
    ...{ currencyOf, depositState: (t, q, d) => payments.deposit.state(t, q, d) },
  });
  // Provisioning and the lifecycle commands reach the embedded ERP's `db` service the same way.
  const erpAccess = { db, box, databases, erpTimeoutMs: config.ERP_TIMEOUT_MS, audit, onRoutingChanged };
  const provisioning = new TenantProvisioningService({
    ...erpAccess,
    erpUrl: config.ERP_URL,
    tenantsHost: config.TENANTS_HOST,
    members,
  });
  const limiter = new RateLimiter(db, clock);
  const integrationsConsole = composeIntegrations(config, db, { settings: integrations, audit, limiter, clock, erps });
  const signupParts = { clock, limiter, email, audit, linkConfig, provisioning, sessions, publicOrigins };
  const signup = composeSignup(config, db, signupParts, opts.captcha);
  const console = composeConsole(config, {
    ...{ db, clock, plans, audit, box, resolver, objects, grids, branches, origins: publicOrigins },
    integrations: integrationsConsole,
  });
  const inventory = composeInventory({ db, erps, plans, audit, clock, jobs, currencyOf });
  const supplyHooks = { readyToFit: messages.readyToFit, partsArrived: inventory.service.receivePurchased };
  return {
    config,
    db,
    clock,
    readiness: { erp_routing: erpRoutingReadiness(db, tenantErps) },
    tokenKeys,
    plans,
    audit,
    members,
    metrics,
    erps,
    objects,
    embeddedObjects: opened.embedded,
    jobs,
    recurring: composeRecurring({ db, clock, plans, audit, jobs }),
    limiter,
    objectStore: objects,
    intake: new ControlIntakeService(db, clock, config.INTAKE_DEDUPE_WINDOW_S),
    crm,
    customers: new CustomersService(db, erps, quotes, audit),
    pipeline,
    officeSearch: new OfficeSearch(erps, quotes, jobs.reader),
    sales: { grids, quotes, sending },
    portal,
    documents,
    reports: new ReportsService(db, erps, plans, (id) => console.settings.get(id), branches),
    resolver,
    ...console,
    branches,
    planChanges: new PlanChanges(db, plans, audit, opts.billing ?? noChargeBilling(), () => clock.now()),
    box,
    publicOrigins,
    tenantErps,
    provisioning,
    tenants: new TenantLifecycleService(erpAccess),
    accounts,
    signup,
    integrations: integrationsConsole,
    payments,
    invoicing,
    supply: composeSupply({ db, erps, audit, clock, currencyOf, email, documents, ...supplyHooks }),
    messages,
    inventory,
    calendar: composeCalendar(config, { db, clock, box, jobs: jobs.reader, origins: publicOrigins }),
    appointments: appointments.page,
  };
}
