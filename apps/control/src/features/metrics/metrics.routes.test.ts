/**
 * The control plane's /metrics as an operator's Grafana reads it: requests move the counters, an
 * outbox row waiting changes the backlog and its age, a failed domain shows up, and an ERP call of a
 * tenant's client records its latency under that tenant.
 */
import { TOPIC_ESTIMATE } from '@platform/contracts';
import { createTwoTenantDb, type TestDb } from '@platform/db';
import { createOdooErp } from '@platform/erp';
import {
  loadOdooFixtures,
  type OdooFixtureServer,
  startOdooFixtureServer,
} from '@platform/erp/contract/odoo-fixture.server.js';
import { hasSample, sampleValue } from '@platform/http-kit/metrics-testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { loadControlConfig } from '../../control.config.js';
import { buildControlApp } from '../../control.http-app.js';
import { composeControl, type ControlDeps } from '../../deps.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
const KEY = '3f1c0e5b8a9d47e2b6c1f0a4d8e7b2c95a1f3e6d';
let t: TestDb;
let app: FastifyInstance;
let deps: ControlDeps;
let tenantA: string;
let tenantB: string;
let odoo: OdooFixtureServer;

beforeAll(async () => {
  ({ t, a: tenantA, b: tenantB } = await createTwoTenantDb('metrics'));
  odoo = await startOdooFixtureServer((await loadOdooFixtures()).values());
  // Tenant A's ERP accepts its key; tenant B's was revoked (Odoo answers `false` to its login).
  const keys: Record<string, string> = { [tenantA]: KEY, [tenantB]: '0'.repeat(40) };
  const erps = {
    forTenant: async (tenantId: string) =>
      createOdooErp({ url: odoo.url, db: 'odoo15', login: 'api-bot@example.com', secret: keys[tenantId]! }),
  };
  deps = composeControl(loadControlConfig({ METRICS_TOKEN: TOKEN }), t.db, { erps });
  app = await buildControlApp(deps, { logger: false, bodyLimit: 65_536, trustProxy: false });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await odoo?.close();
  await t?.drop();
});
beforeEach(async () => void (await t.db.query('DELETE FROM outbox')));

const scrape = async () => {
  const r = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(r.statusCode, r.body).toBe(200);
  return r.body;
};
const enqueueAged = (tenantId: string, topic: string, ageS: number, status = 'pending') =>
  t.db.query(
    `INSERT INTO outbox (tenant_id, topic, payload, status, created_at)
     VALUES ($1, $2, '{}', $3, now() - ($4::int * interval '1 second'))`,
    [tenantId, topic, status, ageS],
  );

describe('control plane /metrics', () => {
  it('refuses a scrape without the configured token', async () => {
    const r = await app.inject({ url: '/metrics' });
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('METRICS_TOKEN_REQUIRED');
  });

  it('counts a health check under its route, labelled with the service', async () => {
    const labels = { service: 'control', route: '/health/live', method: 'GET', status_class: '2xx' };
    const before = sampleValue(await scrape(), 'http_requests_total', labels);
    await app.inject({ url: '/health/live' });
    expect(sampleValue(await scrape(), 'http_requests_total', labels)).toBe(before + 1);
  });

  it('shows the outbox backlog by topic and status and how long the oldest pending row has waited', async () => {
    expect(hasSample(await scrape(), 'outbox_messages', { topic: TOPIC_ESTIMATE })).toBe(false);
    await enqueueAged(tenantA, TOPIC_ESTIMATE, 600);
    await enqueueAged(tenantB, TOPIC_ESTIMATE, 5);
    await enqueueAged(tenantA, TOPIC_ESTIMATE, 60, 'dead');
    await enqueueAged(tenantA, 'sms.send', 1, 'done');
    const text = await scrape();
    expect(sampleValue(text, 'outbox_messages', { topic: TOPIC_ESTIMATE, status: 'pending' })).toBe(2);
    expect(sampleValue(text, 'outbox_messages', { topic: TOPIC_ESTIMATE, status: 'dead' })).toBe(1);
    expect(hasSample(text, 'outbox_messages', { topic: 'sms.send' })).toBe(false);
    const age = sampleValue(text, 'outbox_oldest_pending_age_seconds', { topic: TOPIC_ESTIMATE });
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(3600);
    // Delivered: the backlog drains and its age series goes away.
    await t.db.query(`UPDATE outbox SET status = 'done', done_at = now()`);
    const drained = await scrape();
    expect(hasSample(drained, 'outbox_messages', { topic: TOPIC_ESTIMATE })).toBe(false);
    expect(hasSample(drained, 'outbox_oldest_pending_age_seconds', { topic: TOPIC_ESTIMATE })).toBe(false);
  });

  it('counts tenant domains by certificate state, zero included', async () => {
    const failed = { ssl_status: 'failed', domain_type: 'custom' };
    expect(sampleValue(await scrape(), 'tenant_domains', failed)).toBe(0);
    expect(hasSample(await scrape(), 'tenant_domains', failed)).toBe(true);
    await t.db.query(
      `INSERT INTO tenant_domains (tenant_id, domain_type, domain, ssl_status)
       VALUES ($1, 'custom', 'blinds-a.metrics.test', 'failed'), ($1, 'subdomain', 'metrics-a.tenants.test', 'active')`,
      [tenantA],
    );
    const text = await scrape();
    expect(sampleValue(text, 'tenant_domains', failed)).toBe(1);
    expect(sampleValue(text, 'tenant_domains', { ssl_status: 'active', domain_type: 'subdomain' })).toBe(1);
  });

  it("records a tenant's ERP calls (latency, and errors by code) under that tenant's slug", async () => {
    const erpA = await deps.erps.forTenant(tenantA);
    expect(await erpA.searchCount('res.partner', [['is_company', '=', true]])).toBeTypeOf('number');
    await expect((await deps.erps.forTenant(tenantB)).authenticate()).rejects.toMatchObject({
      code: 'ERP_AUTH_FAILED',
    });
    // The label is the tenant's slug, looked up (once) after the first call: poll until recorded.
    let text = await scrape();
    for (let i = 0; i < 100 && sampleValue(text, 'erp_call_errors_total', { tenant: 'metrics-b' }) === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      text = await scrape();
    }
    expect(sampleValue(text, 'erp_call_duration_seconds_count', { tenant: 'metrics-a', outcome: 'ok' })).toBe(1);
    expect(sampleValue(text, 'erp_call_duration_seconds_sum', { tenant: 'metrics-a' })).toBeGreaterThan(0);
    expect(sampleValue(text, 'erp_call_errors_total', { tenant: 'metrics-a' })).toBe(0);
    // A wrong key: Odoo answers `false`, which the adapter turns into ERP_AUTH_FAILED; counted as an error.
    expect(sampleValue(text, 'erp_call_duration_seconds_count', { tenant: 'metrics-b', outcome: 'error' })).toBe(1);
    expect(sampleValue(text, 'erp_call_errors_total', { tenant: 'metrics-b', code: 'ERP_AUTH_FAILED' })).toBe(1);
  });
});
