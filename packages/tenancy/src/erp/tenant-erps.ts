/**
 * The tenant's ERP: `forTenant(id)` is a client of that tenant's own ERP database under its own
 * service account (tenant_erp_routing), or, for a tenant without a routing row (the default tenant of
 * a single-company install), the platform's default connection (ERP_URL, ERP_DB, ERP_LOGIN and
 * ERP_API_KEY or the embedded ERP's key file). Shared by the control plane and the worker.
 *
 * Clients are cached per tenant (each keeps its authenticated uid). The cache is checked against the
 * routing row's version on every call (one primary-key lookup), so a routing changed by another
 * process (the CLI while `npm start` runs) is picked up at once; `invalidate` drops it in-process.
 * The routing is read as the owner role: this is platform plumbing that serves every tenant, never
 * data handed to a request.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Queryable } from '@platform/db';
import { createOdooErp, type Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';
import type { SecretBox } from '@platform/secrets';

import { erpRoutingVersion, getErpRouting } from './erp-routing.repo.js';

export interface DefaultErpSettings {
  ERP_URL: string;
  ERP_DB: string;
  ERP_LOGIN: string;
  ERP_API_KEY?: string | undefined;
  ERP_TIMEOUT_MS: number;
  DATA_DIR: string;
}

/** Where a tenant's ERP is: for logs, readiness and the tenants API (never the key). */
export interface ErpTarget {
  url: string;
  db: string;
  login: string;
  routed: boolean;
}

export const PLATFORM_KEY_FILE = 'erp-platform-api-key';

export class TenantErps {
  private readonly cache = new Map<string, { version: string; erp: Erp; target: ErpTarget }>();
  private readonly fallback = new Map<string, { secret: string; erp: Erp }>();

  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
    private readonly defaults: DefaultErpSettings,
    private readonly create: typeof createOdooErp = createOdooErp,
  ) {}

  async forTenant(tenantId: string): Promise<Erp> {
    return (await this.resolve(tenantId)).erp;
  }

  async targetOf(tenantId: string): Promise<ErpTarget> {
    return (await this.resolve(tenantId)).target;
  }

  /** Forgets the tenant's client (its routing changed in this process). */
  invalidate(tenantId: string): void {
    this.cache.delete(tenantId);
  }

  /** The default connection (ERP_DB unless another database is named): tenants without routing. */
  defaultErp(db: string = this.defaults.ERP_DB): Erp {
    const secret = this.defaultSecret();
    const hit = this.fallback.get(db);
    if (hit?.secret === secret) return hit.erp;
    const d = this.defaults;
    const erp = this.create({ url: d.ERP_URL, db, login: d.ERP_LOGIN, secret, timeoutMs: d.ERP_TIMEOUT_MS });
    this.fallback.set(db, { secret, erp });
    return erp;
  }

  private async resolve(tenantId: string): Promise<{ erp: Erp; target: ErpTarget }> {
    const found = await erpRoutingVersion(this.db, tenantId);
    if (!found) throw new AppError('TENANT_NOT_FOUND', 'No such tenant.');
    if (found.version === undefined) {
      // No routing: the single-company install (and tenants from before routing) on the default
      // connection, in the tenant's own erp_db when it names one (as the worker always did).
      this.cache.delete(tenantId);
      const d = this.defaults;
      const db = found.erpDb ?? d.ERP_DB;
      return { erp: this.defaultErp(db), target: { url: d.ERP_URL, db, login: d.ERP_LOGIN, routed: false } };
    }
    const hit = this.cache.get(tenantId);
    if (hit?.version === found.version) return hit;
    const r = await getErpRouting(this.db, this.box, tenantId);
    if (!r) return this.resolve(tenantId); // removed between the two reads
    const entry = {
      version: found.version,
      erp: this.create({
        url: r.url,
        db: r.db,
        login: r.login,
        secret: r.apiKey,
        timeoutMs: this.defaults.ERP_TIMEOUT_MS,
      }),
      target: { url: r.url, db: r.db, login: r.login, routed: true },
    };
    this.cache.set(tenantId, entry);
    return entry;
  }

  private defaultSecret(): string {
    if (this.defaults.ERP_API_KEY) return this.defaults.ERP_API_KEY;
    const file = join(this.defaults.DATA_DIR, PLATFORM_KEY_FILE);
    const key = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    // Not there yet: the embedded ERP writes it on its first start. The caller retries later.
    if (!key) throw new AppError('ERP_UNAVAILABLE', 'No ERP_API_KEY and no embedded ERP key file yet.');
    return key;
  }
}
