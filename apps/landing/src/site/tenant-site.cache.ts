/**
 * Rendered tenant sites kept in the process: built on a tenant's first request from its snapshot,
 * dropped when the source says the tenant changed, and bounded (least recently used goes first), so
 * a page view never reads the database once its site is here.
 */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';
import type { WebsiteSnapshotSource } from '@platform/website';

import type { TenantSite } from './tenant-site.js';

export interface TenantRef {
  tenantId: string;
  slug: string;
  name: string;
}

export interface TenantSiteCacheOptions {
  /** Where snapshots come from; without one, `fallback` makes one from the tenant's own name. */
  source?: WebsiteSnapshotSource;
  fallback: (t: TenantRef) => WebsiteSnapshot;
  render: (s: WebsiteSnapshot) => TenantSite;
  /** Tenants kept rendered (default 500). */
  max?: number;
}

export class TenantSiteCache {
  /** Insertion order is recency: a hit moves the tenant to the end, eviction takes the first. */
  private readonly sites = new Map<string, TenantSite | Promise<TenantSite>>();
  private readonly max: number;

  constructor(private readonly o: TenantSiteCacheOptions) {
    this.max = o.max ?? 500;
    o.source?.onChange((tenantId) => (tenantId === null ? this.sites.clear() : this.sites.delete(tenantId)));
  }

  get size(): number {
    return this.sites.size;
  }

  /** The tenant's rendered site: synchronous when cached (the hot path costs no promise). */
  get(t: TenantRef): TenantSite | Promise<TenantSite> {
    const hit = this.sites.get(t.tenantId);
    if (hit) {
      if (this.sites.size > 1) {
        this.sites.delete(t.tenantId);
        this.sites.set(t.tenantId, hit);
      }
      return hit;
    }
    const building = this.build(t);
    this.sites.set(t.tenantId, building);
    // Keep the result only if no change (or eviction) dropped this build meanwhile: a stale
    // snapshot must not outlive the change that invalidated it. A failed build is not kept either.
    building.then(
      (site) => this.sites.get(t.tenantId) === building && this.sites.set(t.tenantId, site),
      () => this.sites.get(t.tenantId) === building && this.sites.delete(t.tenantId),
    );
    while (this.sites.size > this.max) this.sites.delete(this.sites.keys().next().value!);
    return building;
  }

  private async build(t: TenantRef): Promise<TenantSite> {
    const snap = this.o.source ? await this.o.source.get(t.tenantId) : this.o.fallback(t);
    return this.o.render(snap);
  }
}
