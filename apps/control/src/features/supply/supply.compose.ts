/**
 * The supply feature (docs/control-plane.md, "Supplier orders"): the office's service and the job
 * that drafts a confirmed order's supplier orders, with the relay control.server.ts runs for it.
 * Built here so the composition root stays within its size.
 */
import type { Db } from '@platform/db';
import type { Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { DocumentsService } from '../documents/documents.compose.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import type { PurchaseOrderEmailParts } from './purchase-order-email.js';
import { type PartsArrived, SupplyService } from './supply.service.js';
import { SupplyDraftJob } from './supply-draft.job.js';

export interface SupplyFeature {
  service: SupplyService;
  draftJob: SupplyDraftJob;
}

/** What ControlDeps gets from this feature (deps.ts extends it). */
export interface SupplyDeps {
  supply: SupplyFeature;
}

export interface SupplyParts {
  db: Db;
  erps: TenantErps;
  audit: AuditLog;
  clock: Clock;
  currencyOf(tenantId: string): Promise<string>;
  /** The customer's "ready to fit" message (messages.compose.ts), once a sale order's windows all arrived. */
  readyToFit?: (tenantId: string, saleOrderId: number) => Promise<void>;
  /** Stocked parts on a received order go into stock (the inventory feature's receivePurchased). */
  partsArrived?: PartsArrived;
  email: PurchaseOrderEmailParts['email'];
  /** The purchase order's PDF (made after this feature in deps.ts: read at confirmation). */
  documents: Pick<DocumentsService, 'billing'>;
}

export function composeSupply(p: SupplyParts): SupplyFeature {
  return {
    service: new SupplyService(
      p.db,
      p.erps,
      p.audit,
      p.clock,
      p.currencyOf,
      { email: p.email, pdf: (principal, id) => p.documents.billing.purchaseOrder(principal, id) },
      {},
      p.readyToFit,
      p.partsArrived,
    ),
    draftJob: new SupplyDraftJob(p.db, p.erps, () => p.clock.now()),
  };
}
