/**
 * The control plane's metrics: its requests (registered by the app), the process, and the
 * platform-wide gauges an operator alerts on: the outbox backlog and its age by topic, and tenant
 * domains by certificate state. The gauges are read from the database at scrape time (one indexed
 * GROUP BY each), and only here: every replica reports the same database-wide values, so dashboards
 * aggregate them with max(), never sum() (docs/deployment.md "Monitoring").
 */
import type { Queryable } from '@platform/db';
import {
  collectedGauge,
  createErpCallMetrics,
  createMetricsRegistry,
  type ErpCallMetrics,
  type MetricsOptions,
} from '@platform/http-kit';
import { outboxBacklog } from '@platform/outbox';
import { countDomainStates } from '@platform/tenancy';

export interface ControlMetrics extends MetricsOptions {
  /**
   * ERP call latency and errors per tenant: TenantErps passes `erpCalls.observerFor(tenant.slug)` as
   * the `onCall` hook of each tenant's ERP client (createOdooErp).
   */
  erpCalls: ErpCallMetrics;
}

export function composeControlMetrics(db: Queryable, token: string | undefined): ControlMetrics {
  const registry = createMetricsRegistry('control');
  collectedGauge(registry, {
    name: 'outbox_messages',
    help: 'Outbox rows not yet delivered, by topic and status (pending, processing, dead).',
    labelNames: ['topic', 'status'],
    read: async () =>
      (await outboxBacklog(db)).map((r) => ({ labels: { topic: r.topic, status: r.status }, value: r.count })),
  });
  collectedGauge(registry, {
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending outbox row by topic (how far delivery lags behind).',
    labelNames: ['topic'],
    read: async () =>
      (await outboxBacklog(db))
        .filter((r) => r.status === 'pending')
        .map((r) => ({ labels: { topic: r.topic }, value: r.oldest_age_s })),
  });
  collectedGauge(registry, {
    name: 'tenant_domains',
    help: 'Tenant domains by certificate state (ssl_status) and kind (domain_type).',
    labelNames: ['ssl_status', 'domain_type'],
    read: async () =>
      (await countDomainStates(db)).map((r) => ({
        labels: { ssl_status: r.ssl_status, domain_type: r.domain_type },
        value: r.count,
      })),
  });
  return { registry, service: 'control', token, erpCalls: createErpCallMetrics(registry) };
}
