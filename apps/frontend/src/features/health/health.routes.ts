/** `/api/health` (the spec's field-app health check): the process answers. */
import type { FastifyInstance } from 'fastify';

export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/api/health', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
}
