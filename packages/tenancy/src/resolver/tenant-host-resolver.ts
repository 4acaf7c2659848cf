/**
 * Host → tenant for every host that serves tenants (the landing host, the control plane's by-domain,
 * the frontend to come). A platform subdomain `<slug>.<tenants host>` of an active tenant, or an
 * active custom domain, resolves; so do the serving host's own names (`defaultHosts`: the
 * single-company install's default tenant). Anything else does not.
 *
 * Answers (misses too, so a flood of made-up hosts does not reach the database) are cached in
 * process. Any change to tenants, tenant_domains or tenant_settings NOTIFYs `platform_tenancy`
 * (migration 0120) and every process listening drops its cache; the TTL is only a safety net for a
 * notice lost between a dropped LISTEN connection and its reconnect.
 */
import type { Db } from '@platform/db';

import { isSameOrSubdomain, normaliseHost } from './host-name.js';
import {
  activeDefaultTenant,
  activeTenantByCustomDomain,
  activeTenantBySlug,
  type ResolvedTenant,
  type TenantLookup,
} from './resolver.repo.js';

export const TENANCY_CHANNEL = 'platform_tenancy';
const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface TenantHostResolverOptions {
  /** Tenant subdomains are `<slug>.<tenantsHost>`. */
  tenantsHost: string;
  /** Names of the serving host itself, answered with the default tenant (normalised on the way in). */
  defaultHosts?: readonly string[];
  /** The default tenant's `SITE:` name when neither tenants.site_name nor company_name is set. */
  defaultSiteName?: string;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  tenant: ResolvedTenant | null;
  at: number;
}

export class TenantHostResolver {
  private readonly cache = new Map<string, Entry>();
  /** Bumped on every invalidation: a lookup that started before it must not fill the cache after. */
  private generation = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly tenantsHost: string;
  private readonly defaultHosts: Set<string>;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly opts: TenantHostResolverOptions,
  ) {
    this.tenantsHost = normaliseHost(opts.tenantsHost);
    this.defaultHosts = new Set((opts.defaultHosts ?? []).map(normaliseHost).filter(Boolean));
    this.ttlMs = opts.ttlMs ?? 60_000;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** Starts listening for changes; without it the cache only expires by TTL. */
  async start(): Promise<void> {
    if (this.stopListening) return;
    this.stopListening = await this.db.listen(TENANCY_CHANNEL, () => this.invalidate());
  }

  async stop(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }

  /** Forgets every answer (a tenant or a domain changed somewhere). */
  invalidate(): void {
    this.generation++;
    this.cache.clear();
  }

  /**
   * The cached answer without a promise (the hot path): a tenant, `null` for a host known not to
   * resolve, `undefined` when not cached or stale.
   */
  cached(host: string | undefined): ResolvedTenant | null | undefined {
    const hit = this.cache.get(normaliseHost(host));
    return hit && this.now() - hit.at < this.ttlMs ? hit.tenant : undefined;
  }

  async resolve(host: string | undefined): Promise<ResolvedTenant | undefined> {
    const name = normaliseHost(host);
    const hit = this.cache.get(name);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.tenant ?? undefined;
    const generation = this.generation;
    const tenant = await this.lookup(name);
    if (generation === this.generation) {
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(name, { tenant: tenant ?? null, at: this.now() });
    }
    return tenant;
  }

  private async lookup(name: string): Promise<ResolvedTenant | undefined> {
    if (!name) return undefined;
    const th = this.tenantsHost;
    if (th && name !== th && isSameOrSubdomain(name, th)) {
      const slug = name.slice(0, -(th.length + 1));
      // One label only: `a.b.<tenants host>` is nobody's.
      return SLUG.test(slug) ? this.withSiteName(await activeTenantBySlug(this.db, slug)) : undefined;
    }
    const custom = await activeTenantByCustomDomain(this.db, name);
    if (custom) return this.withSiteName(custom);
    if (this.defaultHosts.has(name)) return this.withSiteName(await activeDefaultTenant(this.db));
    return undefined;
  }

  private withSiteName(t: TenantLookup | undefined): ResolvedTenant | undefined {
    if (!t) return undefined;
    const { siteNameSet, ...tenant } = t;
    // The single-company install named its site in SITE_NAME before tenants had a site name.
    if (tenant.isDefault && !siteNameSet && this.opts.defaultSiteName)
      return { ...tenant, siteName: this.opts.defaultSiteName };
    return tenant;
  }
}
