/**
 * The worker's /metrics as an operator reads it: delivering a lead to a real embedded ERP records the
 * ERP call latency under the tenant's slug; an ERP that is down shows as errors of that tenant; and
 * the listener on WORKER_METRICS_PORT serves it (0 turns it off).
 */
import { TOPIC_ESTIMATE } from '@platform/contracts';
import type { Db, TestDb } from '@platform/db';
import { freePort, serveAgain, startTestErp, type TestErp, waitFor } from '@platform/erp-embedded/testing';
import { buildMetricsApp } from '@platform/http-kit';
import { sampleValue } from '@platform/http-kit/metrics-testing';
import { enqueue } from '@platform/outbox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createPlatformDb, estimatePayload, insertSubmission } from '../../../test/support/payloads.js';
import { loadWorkerConfig } from '../../config.js';
import { type RunningWorker, startWorker } from '../../worker.js';
import { startWorkerMetrics } from './worker-metrics.js';

let platform: { t: TestDb; db: Db; tenantId: string };
let erp: TestErp;
const workers: RunningWorker[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  platform = await createPlatformDb();
  erp = await startTestErp({ db: platform.db });
}, 180_000);
afterAll(async () => {
  await erp?.close();
  await platform?.t.drop();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  await Promise.all(closers.splice(0).map((c) => c()));
});

const configFor = (url: string, env: Record<string, string> = {}) =>
  loadWorkerConfig({
    ERP_URL: url,
    ERP_API_KEY: erp.apiKey,
    ERP_DB: erp.dbName,
    LOG_LEVEL: 'silent',
    OUTBOX_POLL_MS: '50',
    OUTBOX_BASE_DELAY_MS: '50',
    CHANGE_FEED_POLL_MS: '0',
    ...env,
  });
const start = async (url: string) => {
  const w = await startWorker(configFor(url), { db: platform.db });
  workers.push(w);
  return w;
};
const submit = async () => {
  const p = estimatePayload();
  await insertSubmission(platform.db, platform.tenantId, p);
  return platform.db.transaction((tx) =>
    enqueue(tx, { tenantId: platform.tenantId, topic: TOPIC_ESTIMATE, aggregateId: p.submissionId, payload: { ...p } }),
  );
};
const scrape = async (w: RunningWorker) => {
  const app = buildMetricsApp(w.metrics);
  try {
    const r = await app.inject({ url: '/metrics' });
    expect(r.statusCode, r.body).toBe(200);
    return r.body;
  } finally {
    await app.close();
  }
};

describe('worker /metrics', { timeout: 60_000 }, () => {
  it("records the ERP calls of a lead delivery under the tenant's slug", async () => {
    const w = await start(erp.url);
    expect(sampleValue(await scrape(w), 'erp_call_duration_seconds_count', { tenant: 'acme' })).toBe(0);
    await submit();
    const text = await waitFor(async () => {
      const t = await scrape(w);
      return sampleValue(t, 'erp_call_duration_seconds_count', { tenant: 'acme', outcome: 'ok' }) > 0 ? t : undefined;
    }, 'ERP calls recorded for tenant acme');
    expect(sampleValue(text, 'erp_call_duration_seconds_sum', { tenant: 'acme' })).toBeGreaterThan(0);
    expect(sampleValue(text, 'erp_call_errors_total', { tenant: 'acme' })).toBe(0);
    // Labelled by tenant, never by the ERP database's name.
    expect(text).not.toContain(`tenant="${erp.dbName}"`);
  });

  it("counts a tenant's ERP errors by code while its ERP is down", async () => {
    const down = await serveAgain(erp, { listen: false });
    closers.push(() => down.stop());
    const w = await start(down.url);
    await submit();
    const text = await waitFor(async () => {
      const t = await scrape(w);
      return sampleValue(t, 'erp_call_errors_total', { tenant: 'acme', code: 'ERP_UNAVAILABLE' }) > 0 ? t : undefined;
    }, 'ERP errors recorded for tenant acme');
    expect(sampleValue(text, 'erp_call_duration_seconds_count', { tenant: 'acme', outcome: 'error' })).toBeGreaterThan(
      0,
    );
  });

  it('serves /metrics on WORKER_METRICS_PORT, and no listener at all when it is 0', async () => {
    const w = await start(erp.url);
    expect(await startWorkerMetrics(configFor(erp.url, { WORKER_METRICS_PORT: '0' }), w.metrics)).toBeUndefined();
    const port = await freePort();
    const server = await startWorkerMetrics(configFor(erp.url, { WORKER_METRICS_PORT: String(port) }), w.metrics);
    closers.push(() => server!.close());
    expect(server!.url).toBe(`http://127.0.0.1:${port}`);
    const r = await fetch(`${server!.url}/metrics`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('process_cpu_seconds_total{service="worker"}');
  });
});
