/**
 * The tenant label of an ERP database for metrics: the worker reaches each tenant's ERP by database
 * name (tenants.erp_db; the default tenant's is ERP_DB), while operators read tenants by slug. The
 * map is read from the tenants table once and again, at most every `refreshMs`, when a database it
 * does not know shows up (a tenant created since). A database no tenant claims keeps its own name.
 */
import type { Queryable } from '@platform/db';
import { listTenants } from '@platform/tenancy';

export class TenantLabels {
  private bySlugDb = new Map<string, string>();
  private loadedAt = -Infinity;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly defaultErpDb: string,
    private readonly refreshMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  async of(erpDb: string | null): Promise<string> {
    const name = erpDb ?? this.defaultErpDb;
    if (!this.bySlugDb.has(name) && this.now() - this.loadedAt >= this.refreshMs) await this.reload();
    return this.bySlugDb.get(name) ?? name;
  }

  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const tenants = await listTenants(this.db);
        this.bySlugDb = new Map(tenants.map((t) => [t.erp_db ?? this.defaultErpDb, t.slug]));
      } catch {
        // Labels are best effort: keep the last map, try again after refreshMs.
      } finally {
        this.loadedAt = this.now();
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
