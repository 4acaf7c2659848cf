/** POST /api/lp/meta-capi: 202 with whether the event was queued (and why not). */
import type { RateLimiter } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import { limitedPost } from '../tenancy/limited-post.js';
import type {} from '../tenancy/tenant-host.hook.js';
import { capiLeadSchema } from './capi.schemas.js';
import type { CapiBridgeService } from './capi-bridge.service.js';

export const CAPI_LIMIT = { name: 'meta-capi', max: 30, windowSeconds: 60 };

export function registerCapiRoutes(
  app: FastifyInstance,
  deps: { capi: CapiBridgeService; limiter: RateLimiter },
): void {
  const o = { limit: CAPI_LIMIT, limiter: deps.limiter, schema: capiLeadSchema };
  limitedPost(app, '/api/lp/meta-capi', o, async (tenantId, input, req, reply) => {
    const ua = req.headers['user-agent'];
    const isDefault = req.tenant?.isDefault ?? false;
    const out = await deps.capi.relayLead({ tenantId, isDefault }, input, {
      ip: req.ip ?? null,
      userAgent: typeof ua === 'string' ? ua.slice(0, 500) : null,
      gpc: req.headers['sec-gpc'] === '1',
    });
    return reply.code(202).header('cache-control', 'no-store').send(out);
  });
}
