/**
 * The ERP host's /metrics: JSON-RPC traffic (what the worker and outside Odoo clients send) moves the
 * `/jsonrpc` counter; Odoo-style unknown URLs share one label; the token guards the scrape.
 */
import { createTestDb, type TestDb } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import { sampleValue } from '@platform/http-kit/metrics-testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { composeErpApp } from '../../deps.js';
import { composeErpMetrics } from './erp-metrics.js';

const TOKEN = 'erp-metrics-token-0123456789abcdef';
let t: TestDb;
let app: FastifyInstance;

beforeAll(async () => {
  t = await createTestDb();
  const erp = new EmbeddedErp(t.db);
  await erp.createDatabase('metrics', { adminPassword: 'pw' });
  app = composeErpApp({ erp, metrics: composeErpMetrics({ METRICS_TOKEN: TOKEN }) });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await t?.drop();
});

const scrape = async () => {
  const r = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.statusCode, r.body).toBe(200);
  return r.body;
};

describe('ERP host /metrics', () => {
  it('counts JSON-RPC calls under /jsonrpc and unknown pages under one label', async () => {
    const rpc = { service: 'erp', method: 'POST', route: '/jsonrpc', status_class: '2xx' };
    const before = await scrape();
    const r = await app.inject({
      method: 'POST',
      url: '/jsonrpc',
      headers: { 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', method: 'call', params: { service: 'common', method: 'version', args: [] }, id: 1 },
    });
    expect(r.json().result.server_serie).toBe('15.0');
    await app.inject({ url: '/web/database/secret-db-name/manager' });
    const after = await scrape();
    expect(sampleValue(after, 'http_requests_total', rpc) - sampleValue(before, 'http_requests_total', rpc)).toBe(1);
    expect(sampleValue(after, 'http_requests_total', { route: 'unmatched', status_class: '4xx' })).toBeGreaterThan(0);
    expect(after).not.toContain('secret-db-name');
  });

  it('refuses a scrape without the token, with a problem naming the code', async () => {
    const r = await app.inject({ url: '/metrics' });
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('METRICS_TOKEN_REQUIRED');
  });
});
