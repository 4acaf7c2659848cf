/**
 * Host → tenant for the frontend: a tenant's verified domain, else `<slug>.<TENANTS_HOST>`, else the
 * default tenant on the hosts of a single-company install (localhost); anything else is unresolved
 * (the not-found page). Answers are cached briefly so a page view costs no query on the hot path;
 * the domains feature's resolver (cache + LISTEN/NOTIFY) replaces this behind the same interface.
 */
import type { Queryable } from '@platform/db';
import { findDefaultTenant, findTenantByDomain, findTenantBySlug } from '@platform/tenancy';

export interface HostTenant {
  id: string;
  slug: string;
  name: string;
}

export interface HostTenants {
  resolve(host: string | undefined): Promise<HostTenant | undefined>;
}

const TTL_MS = 10_000;

export class DbHostTenants implements HostTenants {
  private cache = new Map<string, { tenant: HostTenant | undefined; at: number }>();
  private readonly defaultHosts: Set<string>;

  constructor(
    private readonly db: Queryable,
    private readonly tenantsHost: string,
    defaultHosts: string[],
    private readonly now: () => number = Date.now,
  ) {
    this.defaultHosts = new Set(defaultHosts.map((h) => normaliseHost(h)));
  }

  async resolve(host: string | undefined): Promise<HostTenant | undefined> {
    const domain = normaliseHost(host);
    const hit = this.cache.get(domain);
    if (hit && this.now() - hit.at < TTL_MS) return hit.tenant;
    const row = await this.lookup(domain);
    const tenant = row ? { id: row.id, slug: row.slug, name: row.name } : undefined;
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(domain, { tenant, at: this.now() });
    return tenant;
  }

  private async lookup(domain: string) {
    if (!domain) return undefined;
    const byDomain = await findTenantByDomain(this.db, domain);
    if (byDomain) return byDomain;
    const suffix = `.${this.tenantsHost}`;
    if (domain.endsWith(suffix)) {
      const slug = domain.slice(0, -suffix.length);
      return /^[a-z0-9][a-z0-9-]{0,62}$/.test(slug) ? findTenantBySlug(this.db, slug) : undefined;
    }
    return this.defaultHosts.has(domain) ? findDefaultTenant(this.db) : undefined;
  }
}

/** Lower case, no port, no trailing dot; an IPv6 literal keeps its brackets. */
export function normaliseHost(host: string | undefined): string {
  const h = (host ?? '').trim().toLowerCase();
  const noPort = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]!;
  return noPort.replace(/\.$/, '');
}
