/**
 * A public POST on a tenant's site that a client may call only so often: the per-tenant, per-client
 * limit is spent first, then the body is validated, then `handle` gets the tenant and the input.
 */
import { type Limit, parseOrThrow, type RateLimiter } from '@platform/http-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

import { tenantOf } from './tenant-host.hook.js';

export function limitedPost<S extends z.ZodType>(
  app: FastifyInstance,
  url: string,
  o: { limit: Limit; limiter: RateLimiter; schema: S },
  handle: (tenantId: string, input: z.infer<S>, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  app.post(url, async (req, reply) => {
    const tenantId = tenantOf(req).tenantId;
    await o.limiter.consume(o.limit, `${tenantId}:${req.ip}`);
    return handle(tenantId, parseOrThrow(o.schema, req.body), req, reply);
  });
}
