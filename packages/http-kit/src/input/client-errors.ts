/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses before Fastify sees it (a bad
 * request line or header, a header block too large, a request that took too long) is answered as a
 * problem+json like every other refusal, instead of Fastify's own `{"error","message","statusCode"}`.
 */
import type { Socket } from 'node:net';

import { AppError, type ErrorCode } from '@platform/kernel';

import { toProblem } from '../problem.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

export function problemClientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer (as in Node's and Fastify's own handler).
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, detail]: [ErrorCode, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['REQUEST_TIMEOUT', 'The request was not received in time.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? ['HEADERS_TOO_LARGE', 'The request headers exceed the size limit.']
        : ['BAD_REQUEST', 'The request is not valid HTTP.'];
  const problem = toProblem(new AppError(code, detail));
  const body = JSON.stringify(problem);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${REASONS[problem.status] ?? 'Bad Request'}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
