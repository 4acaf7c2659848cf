/**
 * The landing host's /metrics as an operator reads it: an accepted estimate moves the counter of
 * `POST /api/estimate` (2xx), a refused one its 4xx series, and nothing from the form (ids, emails,
 * tokens) ever becomes a label.
 */
import { sampleValue } from '@platform/http-kit/metrics-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

let h: TestLanding;
beforeAll(async () => void (h = await startTestLanding()), 120_000);
afterAll(() => h?.close());

const scrape = async () => {
  const r = await h.landing.app.inject({ url: '/metrics' });
  expect(r.statusCode, r.body).toBe(200);
  return r.body;
};

describe('landing /metrics', () => {
  it('counts accepted and refused estimates by route and status class, with their latency', async () => {
    const route = { service: 'landing', method: 'POST', route: '/api/estimate' };
    const before = await scrape();
    const ok = await h.post('/api/estimate', {
      name: 'Metric Person',
      email: 'metric.person@example.com',
      phone: '3035550123',
      captcha_token: await h.token(),
    });
    expect(ok.status).toBe(201);
    const bad = await h.post('/api/estimate', { name: 'No Contact', captcha_token: 'forged-token' });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    const after = await scrape();
    const moved = (status_class: string, name = 'http_requests_total') =>
      sampleValue(after, name, { ...route, status_class }) - sampleValue(before, name, { ...route, status_class });
    expect(moved('2xx')).toBe(1);
    expect(moved('4xx')).toBe(1);
    expect(moved('2xx', 'http_request_duration_seconds_count')).toBe(1);
    for (const leaked of ['metric.person@example.com', '3035550123', 'forged-token', ok.body.id]) {
      expect(after).not.toContain(leaked);
    }
  });

  it('is not served to other addresses without METRICS_TOKEN', async () => {
    const r = await h.landing.app.inject({ url: '/metrics', remoteAddress: '192.0.2.10' });
    expect(r.statusCode).toBe(403);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
