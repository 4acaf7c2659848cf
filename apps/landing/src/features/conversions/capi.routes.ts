/** POST /api/lp/meta-capi: 202 with whether the event was queued (and why not). */
import { parseOrThrow, type RateLimiter } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import { tenantOf } from '../tenancy/tenant-host.hook.js';
import { capiLeadSchema } from './capi.schemas.js';
import type { CapiBridgeService } from './capi-bridge.service.js';

export const CAPI_LIMIT = { name: 'meta-capi', max: 30, windowSeconds: 60 };

export function registerCapiRoutes(
  app: FastifyInstance,
  deps: { capi: CapiBridgeService; limiter: RateLimiter },
): void {
  app.post('/api/lp/meta-capi', async (req, reply) => {
    const tenant = { id: tenantOf(req).tenantId };
    await deps.limiter.consume(CAPI_LIMIT, `${tenant.id}:${req.ip}`);
    const input = parseOrThrow(capiLeadSchema, req.body);
    const ua = req.headers['user-agent'];
    const out = await deps.capi.relayLead(tenant.id, input, {
      ip: req.ip ?? null,
      userAgent: typeof ua === 'string' ? ua.slice(0, 500) : null,
      gpc: req.headers['sec-gpc'] === '1',
    });
    return reply.code(202).header('cache-control', 'no-store').send(out);
  });
}
