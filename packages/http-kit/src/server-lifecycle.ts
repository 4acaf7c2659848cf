/** Listening and clean shutdown: Fastify's close() stops accepting and waits for in-flight requests. */
import type { FastifyInstance } from 'fastify';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listenAndTrack(app: FastifyInstance, host: string, port: number): Promise<RunningServer> {
  await app.listen({ host, port });
  const addr = app.server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return { url: `http://${shownHost}:${actual}`, port: actual, close: () => app.close() };
}
