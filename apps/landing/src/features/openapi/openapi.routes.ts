/** GET /openapi.json: the landing API's OpenAPI description, built once at start. */
import type { FastifyInstance } from 'fastify';

import { buildLandingOpenApi } from './openapi.js';

export function registerOpenApiRoutes(app: FastifyInstance): void {
  const doc = JSON.stringify(buildLandingOpenApi());
  app.get('/openapi.json', async (_req, reply) =>
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(doc),
  );
}
