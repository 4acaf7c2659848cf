/**
 * GET /.well-known/acme-challenge/<token>: the http-01 answer, on whatever host the proxy routes port 80
 * to. Only tokens the issuer stored for that very host answer; everything else is a plain 404 (the CA
 * treats any other body as a failed validation).
 */
import type { Queryable } from '@platform/db';
import type { FastifyInstance } from 'fastify';

import { ChallengeRepo } from './challenge.repo.js';

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

export async function acmeChallengeRoutes(app: FastifyInstance, opts: { db: Queryable }): Promise<void> {
  const challenges = new ChallengeRepo(opts.db);
  app.get<{ Params: { token: string } }>('/.well-known/acme-challenge/:token', async (req, reply) => {
    const host = (req.hostname ?? '').split(':')[0]!.toLowerCase();
    const answer = TOKEN.test(req.params.token) ? await challenges.find(req.params.token, host, new Date()) : undefined;
    if (!answer) return reply.code(404).type('text/plain').send('not found');
    return reply.type('text/plain').header('cache-control', 'no-store').send(answer);
  });
}
