/** The control plane's HTTP app. It never listens by itself (control.server.ts does); tests use inject(). */
import {
  createFastify,
  type CreateFastifyOptions,
  registerInputHandling,
  registerMetrics,
  registerProblemHandlers,
} from '@platform/http-kit';
import { type FastifyBaseLogger, type FastifyInstance } from 'fastify';

import type { ControlDeps } from './deps.js';
import { registerAuthRoutes } from './features/accounts/auth.routes.js';
import { registerTeamRoutes } from './features/accounts/team.routes.js';
import { registerApiKeyRoutes } from './features/api-keys/api-keys.routes.js';
import { registerAuditRoutes } from './features/audit/audit.routes.js';
import { registerBranchRoutes } from './features/branches/branches.routes.js';
import { registerCalendarRoutes } from './features/calendar/calendar.routes.js';
import { registerCrmRoutes } from './features/crm/crm.routes.js';
import { registerCustomerRoutes } from './features/customers/customers.routes.js';
import { registerOfficeSearchRoutes } from './features/customers/office-search.routes.js';
import { registerDocumentRoutes } from './features/documents/documents.routes.js';
import { registerDomainRoutes } from './features/domains/domains.routes.js';
import { registerHealthRoutes } from './features/health/health.routes.js';
import { registerIntakeRoutes } from './features/intake/intake.routes.js';
import { registerIntegrationRoutes } from './features/integrations/integrations.routes.js';
import { registerInventoryRoutes } from './features/inventory/inventory.routes.js';
import { registerInvoicingRoutes } from './features/invoicing/invoicing.routes.js';
import { registerJobRoutes } from './features/jobs/jobs.routes.js';
import { registerObjectRoutes } from './features/jobs/objects.routes.js';
import { registerMessageRoutes } from './features/messages/messages.routes.js';
import { registerSetupChecklistRoutes } from './features/onboarding/setup-checklist.routes.js';
import { registerPaymentRoutes } from './features/payments/payments.routes.js';
import { registerPlanRoutes } from './features/plans/plans.routes.js';
import { registerPortalRoutes } from './features/portal/portal.routes.js';
import { registerRecurringRoutes } from './features/recurring/recurring.routes.js';
import { registerReportRoutes } from './features/reports/reports.routes.js';
import { registerSalesRoutes } from './features/sales/sales.routes.js';
import { registerSignupRoutes } from './features/signup/signup.routes.js';
import { registerSupplyRoutes } from './features/supply/supply.routes.js';
import { registerBrandingImageRoutes } from './features/tenants/branding-images.routes.js';
import { registerTenantRoutes } from './features/tenants/tenants.routes.js';
import { registerWebhookRoutes } from './features/webhooks/webhooks.routes.js';
import { registerWebsiteRoutes } from './features/website/website.routes.js';
import { registerOpenApiRoute } from './openapi/openapi.routes.js';
import { RouteCatalogue } from './openapi/routes.js';

export interface ControlAppOptions {
  logger: FastifyBaseLogger | false;
  bodyLimit: number;
  trustProxy: CreateFastifyOptions['trustProxy'];
}

export async function buildControlApp(deps: ControlDeps, opts: ControlAppOptions): Promise<FastifyInstance> {
  const app = createFastify({ logger: opts.logger, bodyLimit: opts.bodyLimit, trustProxy: opts.trustProxy });
  registerInputHandling(app);
  registerProblemHandlers(app);
  registerMetrics(app, deps.metrics);
  registerHealthRoutes(app, deps);
  // Every feature declares its routes through the catalogue, which serves them as OpenAPI 3.1.
  const catalogue = new RouteCatalogue();
  registerPlanRoutes(app, catalogue, deps);
  registerSetupChecklistRoutes(app, catalogue, deps);
  registerBranchRoutes(app, catalogue, deps);
  registerAuditRoutes(app, catalogue, deps);
  registerJobRoutes(app, catalogue, deps);
  registerRecurringRoutes(app, catalogue, deps);
  registerObjectRoutes(app, deps.embeddedObjects);
  registerIntakeRoutes(app, catalogue, deps);
  registerCrmRoutes(app, catalogue, deps);
  registerCustomerRoutes(app, catalogue, deps);
  registerMessageRoutes(app, catalogue, deps);
  registerOfficeSearchRoutes(app, catalogue, deps);
  registerSalesRoutes(app, catalogue, deps);
  registerPortalRoutes(app, catalogue, deps);
  registerDocumentRoutes(app, catalogue, deps);
  registerSupplyRoutes(app, catalogue, deps);
  registerInventoryRoutes(app, catalogue, deps);
  registerCalendarRoutes(app, catalogue, deps);
  registerReportRoutes(app, catalogue, deps);
  registerDomainRoutes(app, catalogue, deps);
  registerWebhookRoutes(app, catalogue, deps);
  registerIntegrationRoutes(app, catalogue, deps);
  registerPaymentRoutes(app, catalogue, deps);
  registerInvoicingRoutes(app, catalogue, deps);
  registerApiKeyRoutes(app, catalogue, deps);
  // The by-domain cache hears tenant and domain changes from every process while the app is up.
  app.addHook('onReady', () => deps.resolver.start());
  app.addHook('onClose', () => deps.resolver.stop());
  // So does the branch scope's cache (branch-cache.ts): no listening, no caching.
  app.addHook('onReady', () => deps.branches.cache.start());
  app.addHook('onClose', () => deps.branches.cache.stop());
  registerTenantRoutes(app, catalogue, deps);
  registerBrandingImageRoutes(app, catalogue, deps);
  registerWebsiteRoutes(app, catalogue, deps);
  registerAuthRoutes(app, catalogue, deps);
  registerTeamRoutes(app, catalogue, deps);
  await registerSignupRoutes(app, catalogue, deps);
  registerOpenApiRoute(app, catalogue);
  return app;
}
