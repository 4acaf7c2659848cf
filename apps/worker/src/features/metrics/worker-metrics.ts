/**
 * The worker's metrics: ERP call latency and errors per tenant (every ERP client the worker makes
 * reports through the Erp port's call hook) and the process. Served by a listener of its own
 * (WORKER_METRICS_PORT, default 9464; 0 = off), since the worker has no other HTTP server.
 * The outbox backlog is the control plane's to report (one database-wide value, one place).
 */
import type { Queryable } from '@platform/db';
import type { ErpCallObserver } from '@platform/erp';
import {
  createErpCallMetrics,
  createMetricsRegistry,
  type ErpCallMetrics,
  type MetricsOptions,
  type RunningServer,
  startMetricsServer,
} from '@platform/http-kit';

import type { WorkerConfig } from '../../config.js';
import { TenantLabels } from './tenant-labels.js';

export interface WorkerMetrics extends MetricsOptions {
  erpCalls: ErpCallMetrics;
  /** The `onCall` hook for the ERP client of one ERP database, labelled with its tenant. */
  observerFor(erpDb: string | null): ErpCallObserver;
}

export function composeWorkerMetrics(
  config: Pick<WorkerConfig, 'METRICS_TOKEN' | 'ERP_DB'>,
  db: Queryable,
): WorkerMetrics {
  const registry = createMetricsRegistry('worker');
  const erpCalls = createErpCallMetrics(registry);
  const labels = new TenantLabels(db, config.ERP_DB);
  return {
    registry,
    service: 'worker',
    token: config.METRICS_TOKEN,
    erpCalls,
    // The label is looked up after the call (it may need one read of the tenants table); recording
    // a moment later changes nothing for a scrape every few seconds.
    observerFor: (erpDb) => (e) => void labels.of(erpDb).then((tenant) => erpCalls.record(tenant, e)),
  };
}

/** The listener, unless WORKER_METRICS_PORT is 0. */
export async function startWorkerMetrics(
  config: Pick<WorkerConfig, 'WORKER_METRICS_PORT' | 'WORKER_METRICS_HOST'>,
  metrics: MetricsOptions,
): Promise<RunningServer | undefined> {
  if (config.WORKER_METRICS_PORT === 0) return undefined;
  return startMetricsServer({ ...metrics, host: config.WORKER_METRICS_HOST, port: config.WORKER_METRICS_PORT });
}
