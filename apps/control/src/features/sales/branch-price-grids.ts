/**
 * A branch's own price grids (multi_location; docs/control-plane.md, "Branches"): listed, put and
 * removed by the office for a branch of its tenant, and laid over the tenant's grids when a quote is
 * for a lead that branch serves (by ZIP, the inbox's routing). Changing them needs the plan feature;
 * after a downgrade the grids stay and keep pricing (a downgrade keeps data).
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { branchOfZip } from '../branches/branch-scope.js';
import type { BranchesService } from '../branches/branches.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import * as repo from './branch-price-grids.repo.js';
import type { PriceGridBody, QuoteBody } from './price-grid.schemas.js';
import type { PriceGrid } from './pricing.js';

const noBranch = () => new AppError('NOT_FOUND', 'No such branch.');

export class BranchPriceGrids {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly branches: Pick<BranchesService, 'list'>,
    private readonly plans: Pick<PlanLimits, 'assertFeature'>,
  ) {}

  private async known(tenantId: string, branchId: string): Promise<void> {
    if (!(await this.branches.list(tenantId)).some((b) => b.id === branchId)) throw noBranch();
  }

  async list(p: Principal, branchId: string) {
    await this.known(p.tenantId, branchId);
    return withTenant(this.db, p.tenantId, (tx) => repo.listBranchGrids(tx, p.tenantId, branchId));
  }

  async put(p: Principal, branchId: string, code: string, body: PriceGridBody, ip?: string) {
    await this.known(p.tenantId, branchId);
    return withTenant(this.db, p.tenantId, async (tx) => {
      await this.plans.assertFeature(tx, p.tenantId, 'multi_location');
      const row = await repo.upsertBranchGrid(tx, p.tenantId, branchId, { product_code: code, ...body });
      await this.record(tx, p, 'sales.branch_price_grid.put', branchId, code, ip);
      return row;
    });
  }

  async remove(p: Principal, branchId: string, code: string, ip?: string): Promise<void> {
    await this.known(p.tenantId, branchId);
    await withTenant(this.db, p.tenantId, async (tx) => {
      await this.plans.assertFeature(tx, p.tenantId, 'multi_location');
      if (!(await repo.deleteBranchGrid(tx, p.tenantId, branchId, code)))
        throw new AppError('NOT_FOUND', 'This branch has no grid of its own for this product.');
      await this.record(tx, p, 'sales.branch_price_grid.delete', branchId, code, ip);
    });
  }

  /**
   * The branch a new quote is priced for: the one serving its lead's ZIP (read from the ERP; the
   * default branch for a ZIP no branch serves). A quote without a lead is priced from the tenant's
   * grids, as the quote builder shows it. Undefined without branches.
   */
  async forQuote(erp: Erp, tenantId: string, body: Pick<QuoteBody, 'lead_id'>) {
    if (!body.lead_id) return undefined;
    const [lead] = await erp.read('crm.lead', [body.lead_id], ['zip']).catch(() => []);
    return this.forZip(tenantId, typeof lead?.zip === 'string' ? lead.zip : null);
  }

  /** The branch serving `zip` (the default one for a ZIP no branch serves); undefined without branches. */
  async forZip(tenantId: string, zip: string | null | undefined): Promise<string | undefined> {
    return branchOfZip(await this.branches.list(tenantId), zip)?.id;
  }

  /** The tenant's grids with the branch's own grids of `codes` laid over them, product by product. */
  async over(tx: Queryable, tenantId: string, branchId: string, codes: string[], grids: Map<string, PriceGrid>) {
    const own = await repo.findBranchGrids(tx, tenantId, branchId, codes);
    return new Map([...grids, ...own.map((g) => [g.product_code, g] as const)]);
  }

  private record(tx: Queryable, p: Principal, action: string, branchId: string, code: string, ip?: string) {
    return this.audit.record(tx, {
      tenantId: p.tenantId,
      actor: { kind: 'user', id: p.userId },
      action,
      target: { type: 'price_grid', id: code },
      ...(ip ? { ip } : {}),
      detail: { branch_id: branchId },
    });
  }
}
