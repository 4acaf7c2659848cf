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
      err: safeErrSerializer,
      // Query strings can carry tokens (e.g. access_token); log the path only.
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: redactPathTokens(req.url.split('?')[0]!),
        id: req.id,
      }),
    },
  };
}

// Customer portal links carry their token in the path (/portal/quote/<token>, /portal/quotes/<token>/…,
// /portal/appointment/<token>, /portal/appointments/<token>/…).
const PATH_TOKEN = /(\/portal\/(?:quotes?|appointments?)\/)[^/]+/g;
export const redactPathTokens = (path: string): string => path.replace(PATH_TOKEN, '$1[redacted]');

// Database errors quote what was submitted: `where: JSON data, line 1: {"email":"…`, `detail`, the
// statement's `params`, and messages such as `invalid input syntax for type uuid: "…"`.
const VALUE_KEYS = ['where', 'detail', 'query', 'params', 'parameters', 'internalQuery', 'values', 'body'];
const isDbError = (e: unknown): boolean => {
  const x = e as { severity?: unknown; code?: unknown } | null;
  return (
    !!x &&
    typeof x === 'object' &&
    (typeof x.severity === 'string' || (typeof x.code === 'string' && /^[0-9A-Z]{5}$/.test(x.code)))
  );
};
const causes = (e: unknown): unknown[] => {
  const out: unknown[] = [];
  for (let c = e; c && typeof c === 'object' && out.length < 10; c = (c as { cause?: unknown }).cause) out.push(c);
  return out;
};
const unquote = (s: unknown) => (typeof s === 'string' ? s.replace(/"[^"\n]*"/g, '"[value]"') : s);

/** pino's error serializer, minus anything that can carry submitted values (they may be personal data). */
export function safeErrSerializer(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  for (const k of VALUE_KEYS) delete out[k];
  if (causes(err).some(isDbError)) {
    out.message = unquote(out.message);
    out.stack = unquote(out.stack);
  }
  return out;
}

// Fastify's own per-request lines (the access log), at info unless demoted.
const REQUEST_LINES = new Set(['incoming request', 'request completed']);

/**
 * The app's pino logger. `requestsAt: 'debug'` demotes Fastify's per-request lines ("incoming request",
 * "request completed") to debug, so a console shows start-up and problems, not traffic (`npm start`;
 * LOG_LEVEL=debug brings them back). Failed requests ("request errored") keep their level.
 */
export function createLogger(
  level = 'info',
  name?: string,
  opts: { requestsAt?: 'info' | 'debug'; destination?: pino.DestinationStream; syncStdout?: boolean } = {},
): pino.Logger {
  const options: LoggerOptions = {
    ...loggerOptions(level, name),
    ...(opts.requestsAt === 'debug' ? { hooks: { logMethod: requestLinesAtDebug } } : {}),
  };
  // syncStdout: each line is written before the call returns, so plain text printed after it (npm start's
  // start-up block) comes after it on the console.
  const destination = opts.destination ?? (opts.syncStdout ? pino.destination({ dest: 1, sync: true }) : undefined);
  return destination ? pino(options, destination) : pino(options);
}

function requestLinesAtDebug(
  this: pino.Logger,
  args: Parameters<pino.LogFn>,
  method: pino.LogFn,
  levelNumber: number,
): void {
  const msg = typeof args[0] === 'string' ? args[0] : args[1];
  if (levelNumber === 30 && typeof msg === 'string' && REQUEST_LINES.has(msg)) {
    if (this.isLevelEnabled('debug')) this.debug(...(args as [object, string]));
    return;
  }
  method.apply(this, args);
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify genReqId: trust a well-formed X-Request-Id, otherwise mint one. */
export function genRequestId(req: IncomingMessage): string {
  const h = req.headers['x-request-id'];
  return typeof h === 'string' && REQUEST_ID_RE.test(h) ? h : randomUUID();
}
