/** POST /api/magnet-signup: per-client limit (5 per 60 s), validation, then 410 or a stored subscriber. */
import { parseOrThrow, type RateLimiter } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import { tenantOf } from '../tenancy/tenant-host.hook.js';
import { magnetSchema } from './magnet.schemas.js';
import type { MagnetSignupService } from './magnet-signup.service.js';

export const MAGNET_LIMIT = { name: 'magnet-signup', max: 5, windowSeconds: 60 };

export function registerMagnetRoutes(
  app: FastifyInstance,
  deps: { magnet: MagnetSignupService; limiter: RateLimiter },
): void {
  app.post('/api/magnet-signup', async (req, reply) => {
    const tenant = { id: tenantOf(req).tenantId };
    await deps.limiter.consume(MAGNET_LIMIT, `${tenant.id}:${req.ip}`);
    const input = parseOrThrow(magnetSchema, req.body);
    const out = await deps.magnet.signUp(tenant.id, input, req.ip ?? null, req.hostname);
    return reply.code(201).header('cache-control', 'no-store').send({ id: out.id, status: 'subscribed' });
  });
}
