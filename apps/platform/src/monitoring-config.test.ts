/**
 * The Prometheus files under deploy/prometheus match the services: a scrape job for every service at
 * its default port, and every metric an alert rule reads is one the services actually export (a
 * renamed metric would otherwise leave an alert that can never fire).
 */
import { readFileSync } from 'node:fs';

import { loadControlConfig } from '@platform/app-control/control.config.js';
import { composeControlMetrics } from '@platform/app-control/features/metrics/control-metrics.js';
import { loadDocsConfig } from '@platform/app-docs/docs.config.js';
import { loadErpConfig } from '@platform/app-erp/erp.config.js';
import { loadLandingConfig } from '@platform/app-landing/config.js';
import { loadWorkerConfig } from '@platform/app-worker/config.js';
import { composeWorkerMetrics } from '@platform/app-worker/features/metrics/worker-metrics.js';
import type { Queryable } from '@platform/db';
import { buildMetricsApp, createMetricsRegistry } from '@platform/http-kit';
import type { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (f: string) => parse(readFileSync(new URL(`../../../deploy/prometheus/${f}`, import.meta.url), 'utf8'));
const prometheus = read('prometheus.yml') as {
  rule_files: string[];
  scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
};
const alerts = read('alerts.yml') as { groups: { rules: { alert: string; expr: string; for?: string }[] }[] };

// Names only: the gauges read the database at scrape time, never when listed.
const noDb: Queryable = {
  query: () => Promise.reject(new Error('not queried: only metric names are listed')),
} as unknown as Queryable;

function exported(): Set<string> {
  const registries: Registry[] = [
    composeControlMetrics(noDb, undefined).registry,
    composeWorkerMetrics(loadWorkerConfig({}), noDb).registry,
  ];
  const http = createMetricsRegistry('any');
  buildMetricsApp({ registry: http, service: 'any' });
  registries.push(http);
  const names = new Set(['up']); // set by Prometheus itself for every target
  for (const r of registries)
    for (const m of r.getMetricsAsArray()) {
      const { name, type } = m as unknown as { name: string; type: string };
      names.add(name);
      if (type === 'histogram') for (const s of ['_bucket', '_count', '_sum']) names.add(name + s);
    }
  return names;
}

const PROMQL_WORDS = new Set(
  'sum max min avg count rate increase irate delta histogram_quantile by without on ignoring group_left group_right offset and or unless bool abs clamp_min clamp_max absent vector time le'.split(
    ' ',
  ),
);

/** Metric names in an expression: identifiers outside strings, label matchers, ranges and by/without lists. */
function metricsIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
}

describe('Prometheus configuration in deploy/prometheus', () => {
  it('scrapes every service at the port it listens on by default', () => {
    const ports: Record<string, number> = {
      'platform-erp': loadErpConfig({}).ERP_PORT,
      'platform-landing': loadLandingConfig({}).LANDING_PORT,
      'platform-docs': loadDocsConfig({}).DOCS_PORT,
      'platform-control': loadControlConfig({}).CONTROL_PORT,
      'platform-worker': loadWorkerConfig({}).WORKER_METRICS_PORT,
    };
    const jobs = Object.fromEntries(
      prometheus.scrape_configs.map((j) => [j.job_name, j.static_configs.flatMap((s) => s.targets)]),
    );
    expect(Object.keys(jobs).sort()).toEqual(Object.keys(ports).sort());
    for (const [job, port] of Object.entries(ports)) expect(jobs[job], job).toContain(`127.0.0.1:${port}`);
    expect(prometheus.rule_files).toContain('alerts.yml');
  });

  it('alerts only on metrics the services export, covering outbox age, dead letters, ERP errors and failed domains', () => {
    const names = exported();
    const rules = alerts.groups.flatMap((g) => g.rules);
    for (const r of rules) for (const m of metricsIn(r.expr)) expect(names.has(m), `${r.alert}: ${m}`).toBe(true);
    const used = new Set(rules.flatMap((r) => metricsIn(r.expr)));
    for (const m of ['outbox_oldest_pending_age_seconds', 'outbox_messages', 'erp_call_errors_total', 'tenant_domains'])
      expect(used.has(m), m).toBe(true);
  });

  it('would catch an alert on a metric nobody exports', () => {
    expect(metricsIn('max by (topic) (outbox_oldest_pending_age_secs{topic="x"}) > 900')).toEqual([
      'outbox_oldest_pending_age_secs',
    ]);
    expect(exported().has('outbox_oldest_pending_age_secs')).toBe(false);
  });
});
