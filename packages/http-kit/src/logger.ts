/**
 * pino options shared by every app: JSON lines, secrets and tokens redacted wherever they appear in
 * a logged object, and request ids taken from X-Request-Id when the proxy sent one.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino, { type LoggerOptions } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  '*.password',
  '*.secret',
  '*.apiKey',
  '*.api_key',
  '*.accessToken',
  '*.access_token',
  '*.refresh_token',
  '*.captcha_token',
  '*.token',
  '*.client_secret',
  'password',
  'secret',
  'apiKey',
  'token',
];

export function loggerOptions(level = 'info', name?: string): LoggerOptions {
  return {
    level,
    ...(name ? { name } : {}),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      // Query strings can carry tokens (e.g. access_token); log the path only.
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: req.url.split('?')[0], id: req.id }),
    },
  };
}

export const createLogger = (level = 'info', name?: string) => pino(loggerOptions(level, name));

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify genReqId: trust a well-formed X-Request-Id, otherwise mint one. */
export function genRequestId(req: IncomingMessage): string {
  const h = req.headers['x-request-id'];
  return typeof h === 'string' && REQUEST_ID_RE.test(h) ? h : randomUUID();
}
