/**
 * The one way every app builds its Fastify instance: graceful close, problem+json for framework and
 * client errors, request ids (a well-formed X-Request-Id is kept, else one is minted) echoed on every
 * reply, and the app's logger or none.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';

import { problemClientErrorHandler } from './input/client-errors.js';
import { problemFrameworkErrors } from './input/input-handling.js';
import { genRequestId } from './logger.js';
import { GRACEFUL_FASTIFY_OPTIONS } from './server-lifecycle.js';

export interface CreateFastifyOptions {
  /** A logger instance (the platform's child logger), or pino options for Fastify to build one, or none. */
  logger?: FastifyBaseLogger | FastifyServerOptions['logger'] | false;
  bodyLimit?: number;
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Fastify server options an app needs beyond these (e.g. the ERP's log controller). */
  extra?: Pick<FastifyServerOptions, 'logController'>;
}

const isInstance = (l: CreateFastifyOptions['logger']): l is FastifyBaseLogger =>
  typeof l === 'object' && l !== null && typeof (l as FastifyBaseLogger).child === 'function';

export function createFastify(o: CreateFastifyOptions = {}): FastifyInstance {
  const base = {
    ...GRACEFUL_FASTIFY_OPTIONS,
    ...o.extra,
    genReqId: genRequestId,
    frameworkErrors: problemFrameworkErrors,
    clientErrorHandler: problemClientErrorHandler,
    ...(o.bodyLimit !== undefined ? { bodyLimit: o.bodyLimit } : {}),
    ...(o.trustProxy !== undefined ? { trustProxy: o.trustProxy } : {}),
  };
  const app = isInstance(o.logger)
    ? Fastify({ ...base, loggerInstance: o.logger })
    : Fastify({ ...base, logger: o.logger ?? false });
  // Callback style: an async hook costs a promise and a microtask turn on every reply.
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  // The one cast: Fastify types an instance built with a logger instance by that logger's type, and
  // every feature takes the plain FastifyInstance.
  return app as unknown as FastifyInstance;
}
