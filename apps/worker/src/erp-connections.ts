/**
 * The worker's ERP clients: each tenant's own ERP database under its own service account
 * (tenant_erp_routing, sealed key opened with the worker's secret box), or the platform's default
 * connection for a tenant without routing (ERP_URL, the tenant's erp_db or ERP_DB, ERP_LOGIN,
 * ERP_API_KEY or the embedded ERP's key file, re-read when it changes). Shared code:
 * TenantErps in @platform/tenancy, the same the control plane uses.
 */
import type { Db } from '@platform/db';
import { createOdooErp, type ErpCallObserver } from '@platform/erp';
import { TenantErps } from '@platform/tenancy';

import type { WorkerConfig } from './config.js';
import { secretBoxFrom } from './secrets.js';

export type ErpSettings = Pick<
  WorkerConfig,
  | 'ERP_URL'
  | 'ERP_DB'
  | 'ERP_LOGIN'
  | 'ERP_API_KEY'
  | 'ERP_TIMEOUT_MS'
  | 'DATA_DIR'
  | 'SECRETS_KEYRING'
  | 'SECRETS_ACTIVE_KEY'
>;

/** `observerFor`: the metrics hook of each database's client (latency and errors per tenant). */
export function workerTenantErps(
  config: ErpSettings,
  db: Db,
  observerFor?: (erpDb: string) => ErpCallObserver,
): TenantErps {
  const create: typeof createOdooErp = observerFor
    ? (o) => createOdooErp({ ...o, onCall: observerFor(o.db) })
    : createOdooErp;
  return new TenantErps(db, secretBoxFrom(config), config, create);
}
