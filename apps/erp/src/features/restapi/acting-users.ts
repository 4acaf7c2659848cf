/**
 * The ERP user a key or token acts for. The REST layer calls the ERP as the service account and
 * passes `allowed_company_ids` = this user's companies, so the ERP's company record rules apply as
 * they would to the user. Looked up through the `Erp` port (res.users), cached for a few seconds.
 */
import type { Erp } from '@platform/erp';

export interface ActingUser {
  uid: number;
  login: string;
  companyIds: number[];
}

const m2oId = (v: unknown): number | undefined => (Array.isArray(v) && typeof v[0] === 'number' ? v[0] : undefined);

export class ActingUsers {
  private readonly cache = new Map<string, { until: number; user: ActingUser | undefined }>();
  private multiCompany: Promise<boolean> | undefined;

  constructor(
    private readonly erp: Erp,
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The active user with this login, or undefined (unknown or archived). */
  async find(login: string): Promise<ActingUser | undefined> {
    const hit = this.cache.get(login);
    if (hit && hit.until > this.now()) return hit.user;
    const fields = (await this.hasCompanyIds()) ? ['company_id', 'company_ids'] : ['company_id'];
    const [row] = await this.erp.searchRead('res.users', [['login', '=', login]], { fields, limit: 1 });
    let user: ActingUser | undefined;
    if (row) {
      const ids = Array.isArray(row.company_ids) ? (row.company_ids as number[]) : [];
      const main = m2oId(row.company_id);
      // Odoo puts the current company first in allowed_company_ids.
      const companyIds = main !== undefined ? [main, ...ids.filter((c) => c !== main)] : ids;
      user = { uid: row.id, login, companyIds };
    }
    if (this.cache.size > 5_000) this.cache.clear();
    this.cache.set(login, { until: this.now() + this.ttlMs, user });
    return user;
  }

  /** Odoo's context for calls made on behalf of `user`. */
  static context(user: ActingUser): Record<string, unknown> {
    return user.companyIds.length ? { allowed_company_ids: user.companyIds } : {};
  }

  /** Odoo has res.users.company_ids; an ERP without multi-company may not. */
  private hasCompanyIds(): Promise<boolean> {
    this.multiCompany ??= this.erp.fieldsGet('res.users', ['type']).then((f) => 'company_ids' in f);
    this.multiCompany.catch(() => (this.multiCompany = undefined));
    return this.multiCompany;
  }
}
