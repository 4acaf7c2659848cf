/**
 * The docs site's /metrics: Prometheus reads it without the docs password (its own guard instead),
 * and a page view moves the request counter of the static route.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sampleValue } from '@platform/http-kit/metrics-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadDocsConfig } from './docs.config.js';
import { startDocs } from './docs.server.js';

let tmp: string;
let docs: NonNullable<Awaited<ReturnType<typeof startDocs>>>;
const auth = `Basic ${Buffer.from('docs:a-docs-password-for-tests').toString('base64')}`;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'docs-metrics-'));
  const dist = join(tmp, 'dist');
  // A built site of one page: the build itself is covered by docs.server.test.ts.
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Docs</title><p>Platform documentation</p>');
  const config = loadDocsConfig({
    DOCS_PORT: '0',
    DOCS_HOST: '127.0.0.1',
    DOCS_DIST: dist,
    DATA_DIR: join(tmp, 'data'),
    DOCS_PASSWORD: 'a-docs-password-for-tests',
  });
  docs = (await startDocs(config))!;
});
afterAll(async () => {
  await docs?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('docs site /metrics', () => {
  it('counts page views without the docs password, and stays closed to other addresses', async () => {
    const scrape = async () => {
      const r = await docs.app.inject({ url: '/metrics' });
      expect(r.statusCode, r.body).toBe(200);
      return r.body;
    };
    const labels = { service: 'docs', method: 'GET', status_class: '2xx' };
    const before = sampleValue(await scrape(), 'http_requests_total', labels);
    expect((await docs.app.inject({ url: '/index.html', headers: { authorization: auth } })).statusCode).toBe(200);
    expect(sampleValue(await scrape(), 'http_requests_total', labels)).toBe(before + 1);
    const signedOut = sampleValue(await scrape(), 'http_requests_total', { service: 'docs', status_class: '4xx' });
    await docs.app.inject({ url: '/index.html' });
    expect(sampleValue(await scrape(), 'http_requests_total', { service: 'docs', status_class: '4xx' })).toBe(
      signedOut + 1,
    );
    const remote = await docs.app.inject({ url: '/metrics', remoteAddress: '198.51.100.4' });
    expect(remote.statusCode).toBe(403);
    // Over the real socket too (loopback).
    expect((await fetch(`${docs.url}/metrics`)).status).toBe(200);
  });
});
