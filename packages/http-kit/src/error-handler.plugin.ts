/**
 * Turns every failure into an RFC 9457 problem+json reply: AppErrors by their code, Fastify's own
 * errors (body too large, bad content type, malformed JSON) by theirs, anything else as INTERNAL
 * with the detail hidden. Also answers unknown routes with a problem body.
 */
import { AppError, type ErrorCode } from '@platform/kernel';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { toProblem } from './problem.js';

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'The request body exceeds the size limit.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['MALFORMED_JSON', 'The JSON body is empty.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['MALFORMED_JSON', 'The body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['BAD_REQUEST', 'Content-Length does not match the body.'],
  FST_ERR_BAD_URL: ['BAD_REQUEST', 'The URL is not valid.'],
};

export function asAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  const mapped = fe?.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return new AppError(mapped[0], mapped[1], { cause: err });
  if (isDatabaseDown(err))
    return new AppError('DATABASE_UNAVAILABLE', 'The service is temporarily unavailable; please try again shortly.', {
      cause: err,
    });
  // JSON.parse failures surface as SyntaxError with status 400.
  if (err instanceof SyntaxError || fe?.statusCode === 400)
    return new AppError('MALFORMED_JSON', 'The body is not valid JSON.', { cause: err });
  return new AppError('INTERNAL', 'An unexpected error occurred; it has been logged.', { cause: err });
}

// Connection failures (refused, reset, timed out) and PostgreSQL's connection/shutdown SQLSTATE classes.
const DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
]);
function isDatabaseDown(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && (DOWN_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  return (
    typeof e?.message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|PGlite is closed/i.test(e.message)
  );
}

export function sendProblem(req: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  const problem = toProblem(err, { instance: req.url.split('?')[0], requestId: String(req.id) });
  if (problem.status === 429 && typeof err.details?.retry_after === 'number') {
    reply.header('retry-after', String(err.details.retry_after));
  }
  return reply.code(problem.status).type('application/problem+json').send(problem);
}

/** `notFound: false` leaves unknown routes to the app (the ERP host answers them as Odoo does). */
export function registerProblemHandlers(app: FastifyInstance, opts: { notFound?: boolean } = {}): void {
  app.setErrorHandler((err, req, reply) => {
    const appErr = asAppError(err);
    if (appErr.code === 'INTERNAL') req.log.error({ err }, 'unhandled error');
    else if (appErr.code.endsWith('_UNAVAILABLE'))
      req.log.warn({ code: appErr.code, err: appErr.cause ?? appErr }, appErr.message);
    else req.log.info({ code: appErr.code }, appErr.message);
    return sendProblem(req, reply, appErr);
  });
  if (opts.notFound === false) return;
  app.setNotFoundHandler((req, reply) =>
    sendProblem(req, reply, new AppError('NOT_FOUND', `No route for ${req.method} ${req.url.split('?')[0]}.`)),
  );
}
