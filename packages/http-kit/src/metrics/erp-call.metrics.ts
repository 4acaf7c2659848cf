/**
 * ERP call latency and errors per tenant, fed by the Erp port's call hook (`onCall` of
 * `createOdooErp` in @platform/erp). The tenant label is bounded: past `maxTenants` distinct values
 * new ones are counted under `other`, so a bug or a flood of tenants cannot explode the series count.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

/** What the ERP client reports after each call (structurally a subset of `ErpCallEvent` of @platform/erp). */
export interface ErpCallOutcome {
  seconds: number;
  /** The AppError code of a failed call (ERP_UNAVAILABLE, ERP_REJECTED, ERP_AUTH_FAILED). */
  errorCode?: string | undefined;
}

export interface ErpCallMetrics {
  record(tenant: string, e: ErpCallOutcome): void;
  /** A hook for one tenant's ERP client. */
  observerFor(tenant: string): (e: ErpCallOutcome) => void;
}

export const OTHER_TENANTS = 'other';

export function createErpCallMetrics(registry: Registry, opts: { maxTenants?: number } = {}): ErpCallMetrics {
  const maxTenants = opts.maxTenants ?? 1000;
  const seen = new Set<string>();
  const duration = new Histogram({
    name: 'erp_call_duration_seconds',
    help: "Duration of calls to a tenant's ERP (JSON-RPC), by tenant and outcome (ok or error).",
    labelNames: ['tenant', 'outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'erp_call_errors_total',
    help: "Failed calls to a tenant's ERP, by tenant and error code.",
    labelNames: ['tenant', 'code'],
    registers: [registry],
  });
  const bounded = (tenant: string) => {
    if (seen.has(tenant)) return tenant;
    if (seen.size >= maxTenants) return OTHER_TENANTS;
    seen.add(tenant);
    return tenant;
  };
  const record = (tenant: string, e: ErpCallOutcome) => {
    const t = bounded(tenant);
    duration.observe({ tenant: t, outcome: e.errorCode ? 'error' : 'ok' }, e.seconds);
    if (e.errorCode) errors.inc({ tenant: t, code: e.errorCode });
  };
  return { record, observerFor: (tenant) => (e) => record(tenant, e) };
}
