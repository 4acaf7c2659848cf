/** The ERP's HTTP app (Fastify). It never listens by itself: erp.server.ts does, tests use inject(). */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { loggerOptions, problemClientErrorHandler, problemFrameworkErrors, registerInputHandling, registerProblemHandlers } from '@platform/http-kit';
import type { EmbeddedErp } from '@platform/erp-embedded';
import { registerJsonRpcRoutes } from './jsonrpc.routes.js';
import { RpcGateway } from './features/rpc/rpc-gateway.js';
import { registerXmlRpcRoutes } from './features/xmlrpc/xmlrpc.routes.js';
import { SessionRepo } from './features/websession/session.repo.js';
import { WebSessions } from './features/websession/websession.service.js';
import { registerWebSessionRoutes } from './features/websession/websession.routes.js';
import { registerOdooNotFound } from './features/odoo-http/not-found.js';
import type { RestApiDeps } from './features/restapi/restapi.deps.js';
import { registerRestApi } from './features/restapi/restapi.plugin.js';
import type { IntegrationsDeps } from './features/integrations/integrations.deps.js';
import { registerSmsWebhookRoutes } from './features/integrations/sms-webhook.routes.js';
import { registerIntegrationsAdmin } from './features/integrations/integrations-admin.routes.js';
import { registerAccountingRoutes } from './features/integrations/accounting.routes.js';
import { registerEmailAdmin, registerEmailWebhooks, type EmailAdminService, type EmailWebhookService } from '@platform/email';
import { scopeGuard } from './features/email/email-admin.guard.js';
import { ADMIN_INTEGRATIONS_SCOPE } from './features/restapi/scopes.js';

export interface ErpAppDeps {
  erp: EmbeddedErp;
  /** The REST API (`/restapi/1.0/...`, docs/rest-api.md); not mounted when absent. */
  restapi?: RestApiDeps;
  /** ERP-side integrations (SMS webhooks; accounting callback and webhook); not mounted when absent. */
  integrations?: IntegrationsDeps;
  /** A pino logger; when absent, `logLevel` (default silent) configures Fastify's own. */
  logger?: FastifyBaseLogger;
  logLevel?: string;
  /** Email provider webhooks (`/email/webhook/*`); here until the control plane exists (docs/email.md). */
  emailWebhooks?: EmailWebhookService;
  /** Office users' email API (`/restapi/1.0/admin/email/*`, scope admin:integrations); needs `restapi`. */
  emailAdmin?: EmailAdminService;
  /** Idle lifetime of a web session (default Odoo's week). */
  sessionTtlSeconds?: number;
}

export function buildErpApp(deps: ErpAppDeps): FastifyInstance {
  const common = {
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    frameworkErrors: problemFrameworkErrors,
    clientErrorHandler: problemClientErrorHandler,
    // Logged by the onResponse hook below instead, at a level that fits the request.
    disableRequestLogging: true,
  } as const;
  const app = (
    deps.logger
      ? Fastify({ ...common, loggerInstance: deps.logger })
      : Fastify({ ...common, logger: deps.logLevel && deps.logLevel !== 'silent' ? loggerOptions(deps.logLevel) : false })
  ) as unknown as FastifyInstance;

  // Every body, query and path through one decoder and string check; problem+json outside /jsonrpc.
  registerInputHandling(app);
  registerProblemHandlers(app);
  // The worker's change feed and lead delivery call JSON-RPC every few seconds: successful JSON-RPC
  // and health calls are routine (debug); everything else, and any failure, is logged at info.
  app.addHook('onResponse', async (req, reply) => {
    const routine = reply.statusCode < 400 && (req.url === '/jsonrpc' || req.url.startsWith('/web/health'));
    req.log[routine ? 'debug' : 'info']({ method: req.method, url: req.url, statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
  });

  app.get('/web/health', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'pass' };
  });
  // One gateway behind every RPC codec; failed logins are audited and limited with the REST API's.
  const gateway = new RpcGateway(deps.erp, deps.restapi?.failures);
  registerJsonRpcRoutes(app, gateway);
  registerXmlRpcRoutes(app, gateway);
  registerWebSessionRoutes(app, gateway, new WebSessions(gateway, new SessionRepo(deps.erp.db), deps.sessionTtlSeconds));
  registerOdooNotFound(app);
  if (deps.restapi) registerRestApi(app, deps.restapi);
  if (deps.integrations) registerSmsWebhookRoutes(app, deps.integrations);
  if (deps.integrations && deps.restapi) registerIntegrationsAdmin(app, deps.restapi.auth, deps.integrations);
  if (deps.integrations?.accounting) registerAccountingRoutes(app, { ...deps.integrations, accounting: deps.integrations.accounting });
  if (deps.emailWebhooks) registerEmailWebhooks(app, deps.emailWebhooks);
  if (deps.emailAdmin && deps.restapi) registerEmailAdmin(app, scopeGuard(deps.restapi.auth, ADMIN_INTEGRATIONS_SCOPE), deps.emailAdmin);
  return app;
}
