/**
 * Request metrics and the guarded `GET /metrics` endpoint of a service (Prometheus text format).
 * Requests are labelled by method, route template (`/jobs/:id`, never the raw URL, so no id or token
 * ever becomes a label) and status class; unmatched URLs share one label, so scanners cannot
 * grow the series count.
 */
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

import { sendProblem } from '../error-handler.plugin.js';
import { metricsAccess } from './metrics-access.js';

export interface MetricsOptions {
  registry: Registry;
  /** The service's name (landing, erp, control, docs, worker); also the registry's `service` label. */
  service: string;
  /** METRICS_TOKEN; when unset only direct loopback requests may scrape. */
  token?: string | undefined;
  /** Where the endpoint is served (default `/metrics`). */
  path?: string;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
export const UNMATCHED_ROUTE = 'unmatched';

/** The route template Fastify matched, or one shared label when none did (404s, refused requests). */
export function routeLabel(req: FastifyRequest): string {
  return req.routeOptions?.url || UNMATCHED_ROUTE;
}

const statusClass = (code: number) => `${Math.floor(code / 100)}xx`;

function metricOnce<T>(registry: Registry, name: string, make: () => T): T {
  // A second app on the same registry (tests, restarts in one process) reuses the metric.
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

export function registerMetrics(app: FastifyInstance, opts: MetricsOptions): void {
  const { registry } = opts;
  const path = opts.path ?? '/metrics';
  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = metricOnce(
    registry,
    'http_requests_total',
    () =>
      new Counter({
        name: 'http_requests_total',
        help: 'HTTP requests answered, by method, route template and status class.',
        labelNames,
        registers: [registry],
      }),
  );
  const duration = metricOnce(
    registry,
    'http_request_duration_seconds',
    () =>
      new Histogram({
        name: 'http_request_duration_seconds',
        help: 'Time from the request arriving to the reply being sent, by method, route template and status class.',
        labelNames,
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      }),
  );

  // Callback style: an async hook costs a promise per request.
  app.addHook('onResponse', (req, reply, done) => {
    const route = routeLabel(req);
    // Scrapes are not traffic (Prometheus reports them as scrape_duration_seconds).
    if (route !== path) {
      const labels = {
        method: METHODS.has(req.method) ? req.method : 'OTHER',
        route,
        status_class: statusClass(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    }
    done();
  });

  app.get(path, async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const access = metricsAccess(req, opts.token);
    if (access === 'token_required') {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendProblem(req, reply, new AppError('METRICS_TOKEN_REQUIRED', 'Send METRICS_TOKEN as a bearer token.'));
    }
    if (access === 'local_only') {
      return sendProblem(
        req,
        reply,
        new AppError(
          'METRICS_LOCAL_ONLY',
          'Metrics are served to direct loopback requests only; set METRICS_TOKEN to scrape from elsewhere.',
        ),
      );
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
