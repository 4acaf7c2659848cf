/**
 * `/health/live`: the process answers. `/health/ready` and `/health`: the database answers, and each
 * readiness check that deps registered (every tenant's ERP routing, for one) passes; 503 names the
 * failing check without its detail (which may hold hosts or credentials' names).
 */
import type { FastifyInstance } from 'fastify';

import type { ControlDeps } from '../../deps.js';

const TIMEOUT_MS = 2_000;

async function withTimeout(check: () => Promise<void>): Promise<'ok' | 'fail'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS))),
    ]);
    return 'ok';
  } catch {
    return 'fail';
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: FastifyInstance, deps: ControlDeps): void {
  app.get('/health/live', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  const ready = async (_req: unknown, reply: import('fastify').FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const checks: Record<string, { status: 'ok' | 'fail' }> = {};
    checks.database = { status: await withTimeout(async () => void (await deps.db.query('SELECT 1'))) };
    for (const [name, check] of Object.entries(deps.readiness)) checks[name] = { status: await withTimeout(check) };
    const ok = Object.values(checks).every((c) => c.status === 'ok');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'fail', checks });
  };
  app.get('/health', ready);
  app.get('/health/ready', ready);
}
