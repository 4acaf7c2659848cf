/**
 * The tenant's price grids: listed and replaced by office staff, read by quoting. A tenant that has
 * never had grids gets the default set on first use, so a fresh tenant can quote at once.
 */
import { type Db, type Queryable, withTenant } from '@platform/db';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { BranchesService } from '../branches/branches.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { BranchPriceGrids } from './branch-price-grids.js';
import { DEFAULT_GRIDS } from './default-grids.js';
import type { PriceGridBody } from './price-grid.schemas.js';
import * as repo from './price-grids.repo.js';
import type { PriceGrid } from './pricing.js';

export class PriceGridsService {
  /** Told after each committed change (the website's products follow the grids). */
  private readonly listeners: ((tenantId: string) => Promise<void>)[] = [];

  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    /** The branches, for their own grids (multi_location), laid over these for a branch's quotes. */
    withBranches?: { branches: Pick<BranchesService, 'list'>; plans: Pick<PlanLimits, 'assertFeature'> },
  ) {
    if (withBranches) this.branch = new BranchPriceGrids(db, audit, withBranches.branches, withBranches.plans);
  }

  readonly branch: BranchPriceGrids | undefined;

  onChange(listener: (tenantId: string) => Promise<void>): void {
    this.listeners.push(listener);
  }

  /** Seeds the defaults the first time a tenant's grids are used (inside the caller's transaction). */
  private async ensureSeeded(tx: Queryable, tenantId: string): Promise<void> {
    if (!(await repo.claimSeed(tx, tenantId))) return;
    for (const g of DEFAULT_GRIDS) await repo.insertGridIfMissing(tx, tenantId, g);
  }

  /** The grids, or (given a lead's ZIP) as the branch serving it prices: its own grids laid over these. */
  async list(tenantId: string, zip?: string) {
    // An empty ZIP is the default branch's, as a lead without one is.
    const branchId = zip !== undefined && this.branch ? await this.branch.forZip(tenantId, zip) : undefined;
    return withTenant(this.db, tenantId, async (tx) => {
      await this.ensureSeeded(tx, tenantId);
      const rows = await repo.listGrids(tx, tenantId);
      if (!branchId || !this.branch) return rows;
      const codes = rows.map((r) => r.product_code);
      const over = await this.branch.over(tx, tenantId, branchId, codes, new Map(rows.map((r) => [r.product_code, r])));
      return [...over.values()];
    });
  }

  async put(p: Principal, productCode: string, body: PriceGridBody, ip: string | undefined) {
    const row = await withTenant(this.db, p.tenantId, async (tx) => {
      await this.ensureSeeded(tx, p.tenantId);
      const saved = await repo.upsertGrid(tx, p.tenantId, { product_code: productCode, ...body });
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'sales.price_grid.put',
        target: { type: 'price_grid', id: productCode },
        ...(ip ? { ip } : {}),
        detail: {
          widths: body.bands.widths_in.length,
          drops: body.bands.drops_in.length,
          options: body.options.length,
        },
      });
      return saved;
    });
    for (const l of this.listeners) await l(p.tenantId);
    return row;
  }

  /**
   * The grids of these product codes, the branch's own where it has one; an unknown code is
   * reported on the line that used it.
   */
  async forCodes(tx: Queryable, tenantId: string, codes: string[], branchId?: string): Promise<Map<string, PriceGrid>> {
    await this.ensureSeeded(tx, tenantId);
    const unique = [...new Set(codes)];
    const rows = await repo.findGrids(tx, tenantId, unique);
    const grids = new Map(rows.map((r) => [r.product_code, r as PriceGrid]));
    return branchId && this.branch ? this.branch.over(tx, tenantId, branchId, unique, grids) : grids;
  }
}
