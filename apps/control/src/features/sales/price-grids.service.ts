/**
 * The tenant's price grids: listed and replaced by office staff, read by quoting. A tenant that has
 * never had grids gets the default set on first use, so a fresh tenant can quote at once.
 */
import { type Db, type Queryable, withTenant } from '@platform/db';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
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
  ) {}

  onChange(listener: (tenantId: string) => Promise<void>): void {
    this.listeners.push(listener);
  }

  /** Seeds the defaults the first time a tenant's grids are used (inside the caller's transaction). */
  private async ensureSeeded(tx: Queryable, tenantId: string): Promise<void> {
    if (!(await repo.claimSeed(tx, tenantId))) return;
    for (const g of DEFAULT_GRIDS) await repo.insertGridIfMissing(tx, tenantId, g);
  }

  list(tenantId: string) {
    return withTenant(this.db, tenantId, async (tx) => {
      await this.ensureSeeded(tx, tenantId);
      return repo.listGrids(tx, tenantId);
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

  /** The grids of these product codes; an unknown code is reported on the line that used it. */
  async forCodes(tx: Queryable, tenantId: string, codes: string[]): Promise<Map<string, PriceGrid>> {
    await this.ensureSeeded(tx, tenantId);
    const rows = await repo.findGrids(tx, tenantId, [...new Set(codes)]);
    return new Map(rows.map((r) => [r.product_code, r]));
  }
}
