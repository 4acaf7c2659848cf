/**
 * The LOCAL Conversions API stand-in (local-capi.receiver.ts) over HTTP, for embedded mode and tests
 * only: a standalone node:http server (`startLocalCapiReceiver`) or routes mounted on a Fastify app
 * (`localCapiRoutes`). Both decode the body (JSON or form) and answer what the receiver answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import {
  type CapiHandleResult,
  GraphError,
  LocalCapiReceiver,
  type LocalCapiReceiverOptions,
  traceId,
} from './local-capi.receiver.js';

export interface RunningLocalCapiReceiver {
  /** Base URL to use as the sender's `graphUrl`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  receiver: LocalCapiReceiver;
  server: Server;
  close(): Promise<void>;
}

const MAX_BODY = 5 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new GraphError(413, 100, 'Request body too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function decodeBody(ct: string | undefined, text: string): unknown {
  if (text === '') return undefined;
  const type = (ct ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    throw new GraphError(400, 100, 'Invalid JSON body');
  }
}

/** Standalone node:http server; `port` 0 (default) picks a free one. */
export async function startLocalCapiReceiver(
  opts: LocalCapiReceiverOptions & { host?: string; port?: number; receiver?: LocalCapiReceiver },
): Promise<RunningLocalCapiReceiver> {
  const receiver = opts.receiver ?? new LocalCapiReceiver(opts);
  const send = (res: ServerResponse, r: CapiHandleResult): void => {
    res.writeHead(r.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(r.body));
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://local');
      try {
        const body = decodeBody(req.headers['content-type'], await readBody(req));
        send(
          res,
          receiver.handle({
            method: req.method ?? 'GET',
            path: url.pathname,
            query: Object.fromEntries(url.searchParams),
            body,
          }),
        );
      } catch (e) {
        if (e instanceof GraphError) {
          send(res, {
            status: e.status,
            body: { error: { message: e.message, type: 'OAuthException', code: e.code, fbtrace_id: traceId() } },
          });
        } else {
          send(res, {
            status: 500,
            body: {
              error: {
                message: 'An unknown error has occurred.',
                type: 'OAuthException',
                code: 1,
                fbtrace_id: traceId(),
              },
            },
          });
        }
      }
    })();
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const urlHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${urlHost}:${addr.port}`,
    receiver,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface LocalCapiRoutesOptions extends LocalCapiReceiverOptions {
  /** Default `/local-graph`; the sender's graphUrl is then `{base_url}/local-graph`. */
  prefix?: string;
  receiver?: LocalCapiReceiver;
}

/** Fastify plugin: call directly (`await localCapiRoutes(app, opts)`) or `app.register` it. */
export async function localCapiRoutes(app: FastifyInstance, opts: LocalCapiRoutesOptions): Promise<void> {
  const prefix = (opts.prefix ?? '/local-graph').replace(/\/+$/, '');
  const receiver = opts.receiver ?? new LocalCapiReceiver(opts);
  const innerPrefix = prefix !== '' && app.prefix.endsWith(prefix) ? '' : prefix;
  await app.register(
    async (scope) => {
      if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
        scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
          done(null, Object.fromEntries(new URLSearchParams(body as string))),
        );
      }
      scope.post('/:version/:pixelId/events', async (req: FastifyRequest, reply: FastifyReply) => {
        const params = req.params as { version: string; pixelId: string };
        const r = receiver.handle({
          method: 'POST',
          path: `/${params.version}/${encodeURIComponent(params.pixelId)}/events`,
          query: req.query as Record<string, string | undefined>,
          body: req.body,
        });
        return reply.code(r.status).send(r.body);
      });
    },
    { prefix: innerPrefix },
  );
}
