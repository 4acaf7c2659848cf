/**
 * A listener that serves only /metrics, for a process without an HTTP server of its own (the
 * worker: WORKER_METRICS_PORT). Same guard as every service's /metrics.
 */
import Fastify, { type FastifyInstance } from 'fastify';

import { registerProblemHandlers } from '../error-handler.plugin.js';
import { listenAndTrack, type RunningServer } from '../server-lifecycle.js';
import { type MetricsOptions, registerMetrics } from './metrics.plugin.js';

export function buildMetricsApp(opts: MetricsOptions): FastifyInstance {
  const app = Fastify({ logger: false }) as unknown as FastifyInstance;
  registerProblemHandlers(app);
  registerMetrics(app, opts);
  return app;
}

export async function startMetricsServer(
  opts: MetricsOptions & { host: string; port: number },
): Promise<RunningServer> {
  return listenAndTrack(buildMetricsApp(opts), opts.host, opts.port);
}
