/**
 * What an operator's Prometheus sees from any service: request counts and latencies by route
 * template (never an id or a token from the URL), and a /metrics that is not public.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';

import { registerProblemHandlers } from '../error-handler.plugin.js';
import { collectedGauge } from './collected-gauge.js';
import { createErpCallMetrics, OTHER_TENANTS } from './erp-call.metrics.js';
import { registerMetrics } from './metrics.plugin.js';
import { createMetricsRegistry } from './registry.js';
import { hasSample, sampleValue } from './scrape.testing.js';

const TOKEN = 'a'.repeat(12) + 'metrics-token-123';
const apps: FastifyInstance[] = [];
afterEach(async () => void (await Promise.all(apps.splice(0).map((a) => a.close()))));

function appWith(token?: string) {
  const registry = createMetricsRegistry('test');
  const app = Fastify({ logger: false }) as unknown as FastifyInstance;
  registerProblemHandlers(app);
  registerMetrics(app, { registry, service: 'test', token });
  app.get('/jobs/:id', async (req) => ({ id: (req.params as { id: string }).id }));
  app.post('/fail', async (_req, reply) => reply.code(503).send({}));
  apps.push(app);
  return { app, registry };
}
const scrape = async (app: FastifyInstance, headers: Record<string, string> = {}) => {
  const r = await app.inject({ url: '/metrics', headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.body;
};

describe('request metrics', () => {
  it('counts a request under its route template and status class, never under the raw URL', async () => {
    const { app } = appWith();
    const labels = { method: 'GET', route: '/jobs/:id', status_class: '2xx', service: 'test' };
    expect(sampleValue(await scrape(app), 'http_requests_total', labels)).toBe(0);
    await app.inject({ url: '/jobs/4711?token=s3cret-portal-token' });
    await app.inject({ url: '/jobs/4712' });
    const text = await scrape(app);
    expect(sampleValue(text, 'http_requests_total', labels)).toBe(2);
    expect(sampleValue(text, 'http_request_duration_seconds_count', labels)).toBe(2);
    expect(text).not.toContain('4711');
    expect(text).not.toContain('s3cret-portal-token');
  });

  it('files unknown URLs under one label so a scanner cannot grow the series', async () => {
    const { app } = appWith();
    for (let i = 0; i < 5; i++) await app.inject({ url: `/wp-admin/${i}.php` });
    await app.inject({ method: 'POST', url: '/fail' });
    const text = await scrape(app);
    expect(sampleValue(text, 'http_requests_total', { route: 'unmatched', status_class: '4xx' })).toBe(5);
    expect(sampleValue(text, 'http_requests_total', { route: '/fail', status_class: '5xx' })).toBe(1);
    expect(text).not.toContain('wp-admin');
  });

  it("serves Node's process metrics and leaves scrapes out of the request count", async () => {
    const { app } = appWith();
    await scrape(app);
    const text = await scrape(app);
    expect(hasSample(text, 'process_resident_memory_bytes')).toBe(true);
    expect(hasSample(text, 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(hasSample(text, 'http_requests_total', { route: '/metrics' })).toBe(false);
  });
});

describe('who may read /metrics', () => {
  it('without METRICS_TOKEN: a direct loopback scrape only', async () => {
    const { app } = appWith();
    expect((await app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    const remote = await app.inject({ url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json().code).toBe('METRICS_LOCAL_ONLY');
    // The reverse proxy connects from loopback: what it forwards is refused.
    const proxied = await app.inject({ url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(proxied.statusCode).toBe(403);
  });

  it('with METRICS_TOKEN: the bearer token from anywhere, nothing without it (loopback included)', async () => {
    const { app } = appWith(TOKEN);
    const ok = await app.inject({
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Basic ${TOKEN}` }]) {
      const r = await app.inject({ url: '/metrics', headers });
      expect(r.statusCode).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(r.json().code).toBe('METRICS_TOKEN_REQUIRED');
      expect(r.body).not.toContain(TOKEN);
    }
  });
});

describe('scrape-time gauges', () => {
  it('show the current rows, drop vanished label sets, and survive a failing read', async () => {
    const registry = new Registry();
    let rows = [
      { labels: { topic: 'a' }, value: 3 },
      { labels: { topic: 'b' }, value: 1 },
    ];
    let fail = false;
    collectedGauge(registry, {
      name: 'backlog',
      help: 'h',
      labelNames: ['topic'],
      read: async () => {
        if (fail) throw new Error('database down');
        return rows;
      },
    });
    expect(sampleValue(await registry.metrics(), 'backlog', { topic: 'a' })).toBe(3);
    rows = [{ labels: { topic: 'a' }, value: 0 }];
    const text = await registry.metrics();
    expect(sampleValue(text, 'backlog', { topic: 'a' })).toBe(0);
    expect(hasSample(text, 'backlog', { topic: 'b' })).toBe(false);
    fail = true;
    const failed = await registry.metrics();
    expect(hasSample(failed, 'backlog')).toBe(false);
    // Counted as it happens; metrics are read in parallel, so the count shows from the next scrape.
    expect(sampleValue(await registry.metrics(), 'metrics_collect_failures_total', { metric: 'backlog' })).toBe(1);
  });
});

describe('ERP call metrics', () => {
  it('record latency and errors per tenant, and fold tenants past the bound into "other"', async () => {
    const registry = new Registry();
    const m = createErpCallMetrics(registry, { maxTenants: 2 });
    m.observerFor('acme')({ seconds: 0.2 });
    m.record('acme', { seconds: 1.5, errorCode: 'ERP_UNAVAILABLE' });
    m.record('globex', { seconds: 0.1 });
    m.record('initech', { seconds: 0.1 });
    const text = await registry.metrics();
    expect(sampleValue(text, 'erp_call_duration_seconds_count', { tenant: 'acme' })).toBe(2);
    expect(sampleValue(text, 'erp_call_duration_seconds_sum', { tenant: 'acme', outcome: 'error' })).toBeCloseTo(1.5);
    expect(sampleValue(text, 'erp_call_errors_total', { tenant: 'acme', code: 'ERP_UNAVAILABLE' })).toBe(1);
    expect(sampleValue(text, 'erp_call_duration_seconds_count', { tenant: OTHER_TENANTS })).toBe(1);
    expect(hasSample(text, 'erp_call_duration_seconds_count', { tenant: 'initech' })).toBe(false);
  });
});
