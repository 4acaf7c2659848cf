/** The control plane's HTTP app. It never listens by itself (control.server.ts does); tests use inject(). */
import {
  genRequestId,
  problemClientErrorHandler,
  problemFrameworkErrors,
  registerInputHandling,
  registerMetrics,
  registerProblemHandlers,
} from '@platform/http-kit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';

import type { ControlDeps } from './deps.js';
import { registerHealthRoutes } from './features/health/health.routes.js';

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
  registerMetrics(app, deps.metrics);
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  registerHealthRoutes(app, deps);
  return app;
}
