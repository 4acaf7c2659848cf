/** The one place a write's domain outcome becomes an HTTP status (201 for a creation, else 200). */
import type { WriteAnswer, WriteOutcome } from '@platform/kernel';
import type { FastifyReply } from 'fastify';

const STATUS: Record<WriteOutcome, number> = { created: 201, updated: 200 };

export const statusOfOutcome = (o: WriteOutcome): number => STATUS[o];

/** Answers a write: its status, `idempotent-replayed: true` on a replay, never cached. */
export function sendAnswer(reply: FastifyReply, a: WriteAnswer): FastifyReply {
  if (a.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(STATUS[a.outcome]).header('cache-control', 'no-store').send(a.body);
}
