/**
 * Making a quote's sale order in the ERP: the explicit, idempotent step of creating, sending and
 * confirming a quote (never of reading one), under the idempotency primitive's lease.
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';
import { applyUnderLease, LEASE_SECONDS, requestInProgress } from '@platform/intake';
import { isAppError } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import * as repo from './quotes.repo.js';
import * as erpSide from './sales-erp.js';

/**
 * One maker at a time per quote (two retries racing must not both create the order): a lease on
 * the row (the idempotency primitive's), not a lock held across the ERP call. A request that finds
 * the lease taken answers IDEMPOTENCY_REQUEST_IN_PROGRESS; the lease lapses after a minute if its
 * holder died, and the next maker finds the order by the quote's id before making another. The
 * quote's creation is audited when its order exists.
 */
export async function makeQuoteOrder(
  db: Db,
  audit: AuditLog,
  erp: Erp,
  row: repo.QuoteRow,
  onRefusal: 'drop' | 'keep',
  ip?: string,
): Promise<number> {
  const { id, tenant_id: tenantId } = row;
  const scoped = <T>(fn: (tx: Queryable) => Promise<T>) => withTenant(db, tenantId, fn);
  if (!(await scoped((tx) => repo.claimMaking(tx, tenantId, id, LEASE_SECONDS)))) {
    const now = await scoped((tx) => repo.quoteById(tx, tenantId, id));
    if (now?.erp_order_id) return now.erp_order_id;
    throw requestInProgress();
  }
  const lease = {
    forget: () => scoped((tx) => (onRefusal === 'drop' ? repo.deleteQuote : repo.releaseMaking)(tx, tenantId, id)),
    release: () => scoped((tx) => repo.releaseMaking(tx, tenantId, id)),
  };
  const refused = (e: unknown) => isAppError(e) && e.code === 'ERP_REJECTED';
  return applyUnderLease(
    lease,
    async () => {
      const orderId = await erpSide.ensureOrder(erp, id, row.request);
      await scoped(async (tx) => {
        await repo.setErpOrder(tx, tenantId, id, orderId);
        await audit.record(tx, {
          tenantId,
          actor: { kind: 'user', ...(row.created_by ? { id: row.created_by } : {}) },
          action: 'sales.quote.create',
          target: { type: 'quote', id },
          ...(ip ? { ip } : {}),
          detail: { lines: row.request.lines.length, sale_order_id: orderId },
        });
      });
      return orderId;
    },
    refused,
  );
}
