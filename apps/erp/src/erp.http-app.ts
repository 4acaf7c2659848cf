/**
 * The ERP's HTTP app (Fastify): mounts the routes of the parts deps.ts composed. It constructs
 * nothing and never listens by itself: erp.server.ts does, tests use inject().
 */

import { ADMIN_INTEGRATIONS_SCOPE } from '@platform/credentials';
import type { Db } from '@platform/db';
import {
  type EmailAdminService,
  type EmailWebhookService,
  registerEmailAdmin,
  registerEmailUnsubscribe,
  registerEmailWebhooks,
} from '@platform/email';
import {
  createFastify,
  loggerOptions,
  type MetricsOptions,
  registerInputHandling,
  registerMetrics,
  registerProblemHandlers,
} from '@platform/http-kit';
import { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';

import { scopeGuard } from './features/email/email-admin.guard.js';
import { registerAccountingRoutes } from './features/integrations/accounting.routes.js';
import type { IntegrationsDeps } from './features/integrations/integrations.types.js';
import { registerIntegrationsAdmin } from './features/integrations/integrations-admin.routes.js';
import { registerSmsWebhookRoutes } from './features/integrations/sms-webhook.routes.js';
import { type OAuthRouteDeps, registerOAuthMetadata, registerOAuthRoutes } from './features/oauth/oauth.routes.js';
import { registerOdooNotFound } from './features/odoo-http/not-found.js';
import type { RestAuth } from './features/restapi/restapi.auth.js';
import { registerRestApi, type RestApiPluginDeps } from './features/restapi/restapi.plugin.js';
import type { RpcGateway } from './features/rpc/rpc-gateway.js';
import { registerWebSessionRoutes } from './features/websession/websession.routes.js';
import type { WebSessions } from './features/websession/websession.service.js';
import { registerXmlRpcRoutes } from './features/xmlrpc/xmlrpc.routes.js';
import { registerJsonRpcRoutes } from './jsonrpc.routes.js';

/** What the REST API and its OAuth endpoints need from RestApiDeps (restapi.compose.ts). */
export type RestApiRoutes = RestApiPluginDeps & OAuthRouteDeps & { auth: RestAuth };

export interface ErpAppParts {
  /** The one RPC gateway (behind /jsonrpc, XML-RPC and the web session routes) and the web sessions. */
  rpc: { gateway: RpcGateway; webSessions: WebSessions };
  /** The REST API (`/restapi/1.0/...`, docs/rest-api.md); not mounted when absent. */
  restapi?: RestApiRoutes;
  /** ERP-side integrations (SMS webhooks; accounting callback and webhook); not mounted when absent. */
  integrations?: IntegrationsDeps;
  /** A pino logger; when absent, `logLevel` (default silent) configures Fastify's own. */
  logger?: FastifyBaseLogger;
  logLevel?: string;
  /** Email provider webhooks (`/email/webhook/*`); here until the control plane exists (docs/email.md). */
  emailWebhooks?: EmailWebhookService;
  /** The platform database for the public one-click unsubscribe (`/email/unsubscribe/<token>`, RFC 8058). */
  emailUnsubscribeDb?: Db;
  /** Office users' email API (`/restapi/1.0/admin/email/*`, scope admin:integrations); needs `restapi`. */
  emailAdmin?: EmailAdminService;
  /** /metrics (requests, process); not mounted when absent. */
  metrics?: MetricsOptions;
}

/** The REST API and its OAuth endpoints in one /restapi/1.0 scope, and the RFC 8414 metadata at the root. */
export function registerRestApiWithOAuth(app: FastifyInstance, restapi: RestApiRoutes): void {
  registerRestApi(app, restapi, [(scope) => registerOAuthRoutes(scope, restapi)]);
  registerOAuthMetadata(app, restapi);
}

export function buildErpHttpApp(deps: ErpAppParts): FastifyInstance {
  const app = createFastify({
    logger: deps.logger ?? (deps.logLevel && deps.logLevel !== 'silent' ? loggerOptions(deps.logLevel) : false),
    // Logged by the onResponse hook below instead, at a level that fits the request.
    extra: { logController: new LogController({ disableRequestLogging: true }) },
  });

  // Every body, query and path through one decoder and string check; problem+json outside /jsonrpc.
  registerInputHandling(app);
  // Unknown routes answer as Odoo 15 does (registerOdooNotFound below), not with problem+json.
  registerProblemHandlers(app, { notFound: false });
  if (deps.metrics) registerMetrics(app, deps.metrics);
  // The worker's change feed and lead delivery call JSON-RPC every few seconds: successful JSON-RPC
  // and health calls are routine (debug); everything else, and any failure, is logged at info.
  app.addHook('onResponse', async (req, reply) => {
    const routine = reply.statusCode < 400 && (req.url === '/jsonrpc' || req.url.startsWith('/web/health'));
    req.log[routine ? 'debug' : 'info'](
      { method: req.method, url: req.url, statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime) },
      'request completed',
    );
  });

  app.get('/web/health', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'pass' };
  });
  const { gateway, webSessions } = deps.rpc;
  registerJsonRpcRoutes(app, gateway);
  registerXmlRpcRoutes(app, gateway);
  registerWebSessionRoutes(app, gateway, webSessions);
  registerOdooNotFound(app);
  if (deps.restapi) registerRestApiWithOAuth(app, deps.restapi);
  if (deps.integrations) registerSmsWebhookRoutes(app, deps.integrations);
  if (deps.integrations && deps.restapi) registerIntegrationsAdmin(app, deps.restapi.auth, deps.integrations);
  if (deps.integrations?.accounting)
    registerAccountingRoutes(app, { ...deps.integrations, accounting: deps.integrations.accounting });
  if (deps.emailWebhooks) registerEmailWebhooks(app, deps.emailWebhooks);
  if (deps.emailUnsubscribeDb) registerEmailUnsubscribe(app, deps.emailUnsubscribeDb);
  if (deps.emailAdmin && deps.restapi)
    registerEmailAdmin(app, scopeGuard(deps.restapi.auth, ADMIN_INTEGRATIONS_SCOPE), deps.emailAdmin);
  return app;
}
