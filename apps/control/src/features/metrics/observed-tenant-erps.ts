/**
 * ERP call metrics per tenant for the control plane: every ERP client TenantErps hands out reports
 * its calls (observeErp, the Erp port's decorator) under the tenant's slug, the same label the
 * worker uses. Wrapped here, at the composition root, so the tenancy seam stays unaware of metrics.
 */
import type { Queryable } from '@platform/db';
import { type Erp, observeErp } from '@platform/erp';
import type { ErpCallMetrics } from '@platform/http-kit';
import { findTenantById } from '@platform/tenancy';

import type { TenantErps } from '../tenants/tenant-erps.js';

export function observedTenantErps<T extends TenantErps>(inner: T, db: Queryable, metrics: ErpCallMetrics): T {
  // One read per tenant id for the process's life (slugs do not change); a failed read retries.
  const slugs = new Map<string, Promise<string>>();
  const slugOf = (tenantId: string) => {
    let p = slugs.get(tenantId);
    if (!p) {
      p = findTenantById(db, tenantId).then(
        (t) => t?.slug ?? tenantId,
        () => (slugs.delete(tenantId), tenantId),
      );
      slugs.set(tenantId, p);
    }
    return p;
  };
  // One observed client per client handed out: what callers cache per ERP client (the job stages,
  // fsmStages) stays cached instead of being looked up again on every request.
  const observed = new WeakMap<Erp, Erp>();
  // Any other member of the seam (added later) is delegated to the original object.
  const wrapped = Object.create(inner) as T;
  wrapped.forTenant = async (tenantId: string) => {
    const erp = await inner.forTenant(tenantId);
    let o = observed.get(erp);
    if (!o) {
      o = observeErp(erp, (e) => void slugOf(tenantId).then((slug) => metrics.record(slug, e)));
      observed.set(erp, o);
    }
    return o;
  };
  return wrapped;
}
