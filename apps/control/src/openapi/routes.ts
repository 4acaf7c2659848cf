/**
 * How every control-plane route is declared: one call gives Fastify the handler and the OpenAPI 3.1
 * description its operation (generated from the same zod schemas that validate the request), so the
 * served description cannot drift from what the code accepts. Validation failures become
 * VALIDATION_FAILED problems naming each field and rule.
 */
import { parseOrThrow } from '@platform/http-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';

export interface OperationDoc {
  method: string;
  path: string;
  summary: string;
  tags: string[];
  security: 'bearer' | 'operator' | 'portal' | 'none';
  body?: unknown;
  query?: unknown;
  params?: unknown;
  /** Status → description, for the documented answers (problems are added for every operation). */
  responses: Record<string, string>;
}

export class RouteCatalogue {
  readonly operations: OperationDoc[] = [];
}

type Schema = z.ZodType;
export interface RouteSpec<B extends Schema, Q extends Schema, P extends Schema> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify path (`/jobs/:id`); documented as `/jobs/{id}`. */
  url: string;
  summary: string;
  tags: string[];
  security: OperationDoc['security'];
  preHandler?: preHandlerAsyncHookHandler[];
  body?: B;
  query?: Q;
  params?: P;
  responses?: Record<string, string>;
  /** Bytes this route's body may have, when it needs more than the host's BODY_LIMIT_BYTES. */
  bodyLimit?: number;
  handler: (
    input: { body: z.infer<B>; query: z.infer<Q>; params: z.infer<P> },
    req: FastifyRequest,
    reply: FastifyReply,
  ) => Promise<unknown>;
}

const jsonSchema = (s: Schema | undefined) =>
  s ? z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) : undefined;

export function route<
  B extends Schema = z.ZodUnknown,
  Q extends Schema = z.ZodUnknown,
  P extends Schema = z.ZodUnknown,
>(app: FastifyInstance, catalogue: RouteCatalogue, spec: RouteSpec<B, Q, P>): void {
  catalogue.operations.push({
    method: spec.method.toLowerCase(),
    path: spec.url.replace(/:([A-Za-z_]+)/g, '{$1}'),
    summary: spec.summary,
    tags: spec.tags,
    security: spec.security,
    body: jsonSchema(spec.body),
    query: jsonSchema(spec.query),
    params: jsonSchema(spec.params),
    responses: spec.responses ?? { '200': 'OK' },
  });
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.preHandler ? { preHandler: spec.preHandler } : {}),
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    handler: async (req, reply) => {
      const input = {
        body: (spec.body ? parseOrThrow(spec.body, req.body ?? {}) : req.body) as z.infer<B>,
        query: (spec.query ? parseOrThrow(spec.query, req.query) : req.query) as z.infer<Q>,
        params: (spec.params ? parseOrThrow(spec.params, req.params) : req.params) as z.infer<P>,
      };
      return spec.handler(input, req, reply);
    },
  });
}

/** Common pieces of schemas. */
export const uuidParam = <K extends string>(name: K) =>
  z.object({ [name]: z.uuid({ error: 'must be a UUID' }) } as Record<K, z.ZodUUID>);
export const pageQuery = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
};
