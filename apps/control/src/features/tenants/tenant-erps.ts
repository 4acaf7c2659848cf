/**
 * The tenant's ERP, as the control plane reaches it: `forTenant(id)` is the client of that tenant's
 * own ERP database under its service account (tenant_erp_routing), or the platform's default
 * connection for a tenant without routing (the default tenant of a single-company install). The
 * implementation is shared with the worker: TenantErps in @platform/tenancy.
 */
import type { Queryable } from '@platform/db';
import type { Erp } from '@platform/erp';
import { listTenantRecords, type TenantErps as RoutedTenantErps } from '@platform/tenancy';

export interface TenantErps {
  forTenant(tenantId: string): Promise<Erp>;
}

const CONCURRENCY = 8;

/**
 * Readiness: every active tenant's ERP answers `common.version` (reachability; credentials were
 * checked when the routing was saved). Bounded: at most CONCURRENCY calls at once, and the health
 * route's own timeout caps the whole check.
 */
export function erpRoutingReadiness(db: Queryable, erps: RoutedTenantErps): () => Promise<void> {
  return async () => {
    const active = (await listTenantRecords(db)).filter((t) => t.status === 'active');
    const queue = [...active];
    const failed: string[] = [];
    const worker = async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        try {
          await (await erps.forTenant(t.id)).version();
        } catch {
          failed.push(t.slug);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    if (failed.length) throw new Error(`ERP not reachable for tenants: ${failed.join(', ')}`);
  };
}
