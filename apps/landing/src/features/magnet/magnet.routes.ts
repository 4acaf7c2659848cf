/** POST /api/magnet-signup: per-client limit (5 per 60 s), validation, then 410 or a stored subscriber. */
import type { RateLimiter } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import { limitedPost } from '../tenancy/limited-post.js';
import { magnetSchema } from './magnet.schemas.js';
import type { MagnetSignupService } from './magnet-signup.service.js';

export const MAGNET_LIMIT = { name: 'magnet-signup', max: 5, windowSeconds: 60 };

export function registerMagnetRoutes(
  app: FastifyInstance,
  deps: { magnet: MagnetSignupService; limiter: RateLimiter },
): void {
  const o = { limit: MAGNET_LIMIT, limiter: deps.limiter, schema: magnetSchema };
  limitedPost(app, '/api/magnet-signup', o, async (tenantId, input, req, reply) => {
    const out = await deps.magnet.signUp(tenantId, input, req.ip ?? null, req.hostname);
    return reply.code(201).header('cache-control', 'no-store').send({ id: out.id, status: 'subscribed' });
  });
}
