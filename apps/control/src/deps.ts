/**
 * Composition root of the control plane: the only place that constructs its parts (tenancy and
 * provisioning, accounts, plans, domains, the tenant-scoped ERP API, portal tokens, audit, metrics).
 * Nothing here listens: control.server.ts does.
 */
import type { Db } from '@platform/db';
import { type Clock, systemClock } from '@platform/kernel';

import type { ControlConfig } from './control.config.js';
import { composeControlMetrics, type ControlMetrics } from './features/metrics/control-metrics.js';

export interface ControlDeps {
  config: ControlConfig;
  db: Db;
  clock: Clock;
  /** Named readiness checks for /health/ready beyond the database (each rejects when not ready). */
  readiness: Record<string, () => Promise<void>>;
  /** /metrics: requests, process, outbox backlog, domain states, ERP calls per tenant. */
  metrics: ControlMetrics;
}

export interface ComposeControlOptions {
  clock?: Clock;
}

export function composeControl(config: ControlConfig, db: Db, opts: ComposeControlOptions = {}): ControlDeps {
  return {
    config,
    db,
    clock: opts.clock ?? systemClock,
    readiness: {},
    metrics: composeControlMetrics(db, config.METRICS_TOKEN),
  };
}
