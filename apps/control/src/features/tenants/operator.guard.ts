/**
 * The platform operator's endpoints (creating, suspending, resuming, deleting tenants) take
 * `Authorization: Bearer <CONTROL_OPERATOR_TOKEN>`, compared in constant time. Without a configured
 * token those endpoints are closed (the `npm run tenants` CLI still works).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

import { AppError } from '@platform/kernel';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function requireOperator(token: string | undefined): preHandlerAsyncHookHandler {
  const expected = token ? digest(token) : undefined;
  return async (req: FastifyRequest) => {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    // Hashing both sides gives equal lengths, so the comparison leaks nothing about the token.
    if (!expected || !m || !timingSafeEqual(digest(m[1]!), expected))
      throw new AppError('OPERATOR_REQUIRED', 'This endpoint needs the platform operator token.');
  };
}
