/** The control plane's HTTP app. It never listens by itself (control.server.ts does); tests use inject(). */
import {
  genRequestId,
  problemClientErrorHandler,
  problemFrameworkErrors,
  registerInputHandling,
  registerProblemHandlers,
} from '@platform/http-kit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';

import type { ControlDeps } from './deps.js';
import { registerAuthRoutes } from './features/accounts/auth.routes.js';
import { registerTeamRoutes } from './features/accounts/team.routes.js';
import { registerAuditRoutes } from './features/audit/audit.routes.js';
import { registerHealthRoutes } from './features/health/health.routes.js';
import { registerPlanRoutes } from './features/plans/plans.routes.js';
import { registerOpenApiRoute } from './openapi/openapi.routes.js';
import { RouteCatalogue } from './openapi/routes.js';

export interface ControlAppOptions {
  logger: FastifyBaseLogger | false;
  bodyLimit: number;
  trustProxy: boolean | string[];
}

export async function buildControlApp(deps: ControlDeps, opts: ControlAppOptions): Promise<FastifyInstance> {
  const base = {
    bodyLimit: opts.bodyLimit,
    trustProxy: opts.trustProxy,
    genReqId: genRequestId,
    frameworkErrors: problemFrameworkErrors,
    clientErrorHandler: problemClientErrorHandler,
  };
  const app = (opts.logger
    ? Fastify({ loggerInstance: opts.logger, ...base })
    : Fastify({ logger: false, ...base })) as unknown as FastifyInstance;
  registerInputHandling(app);
  registerProblemHandlers(app);
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  registerHealthRoutes(app, deps);
  // Every feature declares its routes through the catalogue, which serves them as OpenAPI 3.1.
  const catalogue = new RouteCatalogue();
  registerPlanRoutes(app, catalogue, deps);
  registerAuditRoutes(app, catalogue, deps);
  registerAuthRoutes(app, catalogue, deps);
  registerTeamRoutes(app, catalogue, deps);
  registerOpenApiRoute(app, catalogue);
  return app;
}
