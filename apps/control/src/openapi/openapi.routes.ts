/** `GET /openapi.json`: the control plane's OpenAPI 3.1 description, built from the route catalogue. */
import { problemOpenApiSchema } from '@platform/http-kit';
import { ERROR_CODES } from '@platform/kernel';
import type { FastifyInstance } from 'fastify';

import type { RouteCatalogue } from './routes.js';

const SECURITY: Record<string, unknown[]> = {
  bearer: [{ bearer: [] }],
  operator: [{ operator: [] }],
  portal: [],
  none: [],
};

export function buildOpenApi(catalogue: RouteCatalogue): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of catalogue.operations) {
    const parameters = [
      ...Object.keys((op.params as { properties?: object } | undefined)?.properties ?? {}).map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: (op.params as { properties: Record<string, unknown> }).properties[name],
      })),
      ...Object.entries((op.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}).map(
        ([name, schema]) => ({
          name,
          in: 'query',
          required: ((op.query as { required?: string[] }).required ?? []).includes(name),
          schema,
        }),
      ),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(op.responses)) responses[status] = { description };
    responses.default = {
      description: 'A problem (RFC 9457); `code` is one of the documented error codes',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: op.tags,
      security: SECURITY[op.security],
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Control plane API',
      version: '1.0.0',
      description: 'Tenants, accounts, plans, domains and the tenant-scoped ERP API (docs/control-plane.md).',
    },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        operator: { type: 'http', scheme: 'bearer', description: 'CONTROL_OPERATOR_TOKEN' },
      },
      schemas: {
        Problem: problemOpenApiSchema(ERROR_CODES),
      },
    },
  };
}

export function registerOpenApiRoute(app: FastifyInstance, catalogue: RouteCatalogue): void {
  app.get('/openapi.json', async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return buildOpenApi(catalogue);
  });
}
