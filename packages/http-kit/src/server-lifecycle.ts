/**
 * Listening and graceful shutdown. close() first stops accepting connections and keeps serving the
 * kept-alive connections that were in use just before (each answer then says `Connection: close`),
 * so a request already on its way over such a connection is finished rather than met by a reset
 * socket or a 503; only then does Fastify's close() end idle connections and wait for in-flight
 * requests. Every app is built with `return503OnClosing: false` (see GRACEFUL_FASTIFY_OPTIONS) so a
 * request that still arrives during Fastify's close is served, not refused with a non-problem body.
 */
import { Server as NetServer, type Socket } from 'node:net';

import type { FastifyInstance } from 'fastify';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Fastify options every HTTP app of the platform is built with (see the module comment). */
export const GRACEFUL_FASTIFY_OPTIONS = { return503OnClosing: false } as const;

export interface ListenOptions {
  /**
   * Longest a shutdown keeps serving connections that carried a request within this time before it
   * (default 1000 ms): a client with steady traffic sends its next request inside the window, gets
   * its answer with `Connection: close` and reconnects elsewhere.
   */
  drainMs?: number;
}

export async function listenAndTrack(
  app: FastifyInstance,
  host: string,
  port: number,
  opts: ListenOptions = {},
): Promise<RunningServer> {
  await app.listen({ host, port });
  const addr = app.server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const drain = trackConnections(app);
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${actual}`,
    port: actual,
    close: () => (closing ??= drain(opts.drainMs ?? 1_000).then(() => app.close())),
  };
}

function trackConnections(app: FastifyInstance): (drainMs: number) => Promise<void> {
  const server = app.server;
  const busy = new Set<Socket>();
  const lastUsed = new Map<Socket, number>();
  let draining = false;
  server.prependListener('request', (req, res) => {
    const socket = req.socket;
    busy.add(socket);
    if (draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      busy.delete(socket);
      if (!socket.destroyed) lastUsed.set(socket, Date.now());
    });
  });
  server.on('connection', (socket: Socket) =>
    socket.once('close', () => {
      busy.delete(socket);
      lastUsed.delete(socket);
    }),
  );
  return async (drainMs) => {
    draining = true;
    // net's close, not http's: it stops accepting without also closing idle kept-alive connections.
    NetServer.prototype.close.call(server);
    const until = Date.now() + drainMs;
    const recentlyUsed = () => [...lastUsed.values()].some((t) => Date.now() - t < drainMs);
    while (Date.now() < until && (busy.size > 0 || recentlyUsed())) {
      await new Promise((r) => setTimeout(r, 20));
    }
  };
}
