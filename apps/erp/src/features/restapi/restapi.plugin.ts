/**
 * Mounts the REST API under /restapi/1.0 in its own Fastify scope: problem+json errors (RFC 9457),
 * a form parser for the OAuth endpoints (mounted into the same scope by the caller), and the OpenAPI
 * document. The /jsonrpc routes outside this scope keep Odoo's envelopes.
 */
import { registerProblemHandlers } from '@platform/http-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import { buildOpenApi } from './openapi.js';
import { registerRestApiRoutes, type RestApiRouteDeps } from './restapi.routes.js';

export interface RestApiPluginDeps extends RestApiRouteDeps {
  /** The OpenAPI document's server (and the OAuth issuer). */
  issuer(req: FastifyRequest): string;
}

/** Routes that share the REST scope (its prefix, problem handlers and form parser): the OAuth endpoints. */
export type RestScopeRoutes = (scope: FastifyInstance) => void;

/** application/x-www-form-urlencoded; a repeated name becomes an array (the OAuth routes refuse it). */
export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return { ...out };
}

export function registerRestApi(
  app: FastifyInstance,
  deps: RestApiPluginDeps,
  inScope: readonly RestScopeRoutes[] = [],
): void {
  app.register(
    async (scope) => {
      registerProblemHandlers(scope);
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (_req, body, done) => {
          done(null, parseForm(body as string));
        },
      );
      for (const mount of inScope) mount(scope);
      registerRestApiRoutes(scope, deps);
      scope.get('/openapi.json', async (req, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return buildOpenApi(deps.issuer(req));
      });
    },
    { prefix: '/restapi/1.0' },
  );
}
