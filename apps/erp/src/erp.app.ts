/** The ERP's HTTP app (Fastify). It never listens by itself: erp.server.ts does, tests use inject(). */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { loggerOptions, problemClientErrorHandler, problemFrameworkErrors, registerInputHandling, registerProblemHandlers } from '@platform/http-kit';
import type { EmbeddedErp } from '@platform/erp/embedded/index.js';
import { registerJsonRpcRoutes } from './jsonrpc.routes.js';
import type { RestApiDeps } from './features/restapi/restapi.deps.js';
import { registerRestApi } from './features/restapi/restapi.plugin.js';
import type { IntegrationsDeps } from './features/integrations/integrations.deps.js';
import { registerSmsWebhookRoutes } from './features/integrations/sms-webhook.routes.js';
import { registerIntegrationsAdmin } from './features/integrations/integrations-admin.routes.js';
import { registerAccountingRoutes } from './features/integrations/accounting.routes.js';

export interface ErpAppDeps {
  erp: EmbeddedErp;
  /** The REST API (`/restapi/1.0/...`, docs/rest-api.md); not mounted when absent. */
  restapi?: RestApiDeps;
  /** ERP-side integrations (SMS webhooks; accounting callback and webhook); not mounted when absent. */
  integrations?: IntegrationsDeps;
  /** A pino logger; when absent, `logLevel` (default silent) configures Fastify's own. */
  logger?: FastifyBaseLogger;
  logLevel?: string;
}

export function buildErpApp(deps: ErpAppDeps): FastifyInstance {
  const common = {
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    frameworkErrors: problemFrameworkErrors,
    clientErrorHandler: problemClientErrorHandler,
  } as const;
  const app = (
    deps.logger
      ? Fastify({ ...common, loggerInstance: deps.logger })
      : Fastify({ ...common, logger: deps.logLevel && deps.logLevel !== 'silent' ? loggerOptions(deps.logLevel) : false })
  ) as unknown as FastifyInstance;

  // Every body, query and path through one decoder and string check; problem+json outside /jsonrpc.
  registerInputHandling(app);
  registerProblemHandlers(app);
  app.get('/web/health', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'pass' };
  });
  registerJsonRpcRoutes(app, deps.erp);
  if (deps.restapi) registerRestApi(app, deps.restapi);
  if (deps.integrations) registerSmsWebhookRoutes(app, deps.integrations);
  if (deps.integrations && deps.restapi) registerIntegrationsAdmin(app, deps.restapi.auth, deps.integrations);
  if (deps.integrations?.accounting) registerAccountingRoutes(app, { ...deps.integrations, accounting: deps.integrations.accounting });
  return app;
}
