/** GET /health: `{"status":"ok"}`, or 503 naming the failing check when the database does not answer. */
import type { Db } from '@platform/db';
import type { FastifyInstance } from 'fastify';

const TIMEOUT_MS = 2_000;

async function checkDatabase(db: Db): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.query('SELECT 1'),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), TIMEOUT_MS))),
    ]);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: FastifyInstance, db: Db): void {
  app.get('/health', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    const failure = await checkDatabase(db);
    if (failure === null) return { status: 'ok', checks: { database: { status: 'ok' } } };
    return reply
      .code(503)
      .send({ status: 'fail', checks: { database: { status: 'fail', detail: 'database unreachable' } } });
  });
}
