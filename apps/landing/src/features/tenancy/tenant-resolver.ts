/**
 * Host → tenant. A verified domain maps to its tenant; any other host falls back to the default
 * tenant of a single-tenant install. The control plane will switch the fallback off.
 */
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';

import { findDefaultTenant, findTenantByDomain, type TenantRow } from './tenant.repo.js';

const TTL_MS = 30_000;

export class TenantResolver {
  private cache = new Map<string, { tenant: TenantRow; at: number }>();

  constructor(
    private readonly db: Db,
    private readonly fallbackToDefault = true,
  ) {}

  /** The tenant of this host when the cache holds it and it is fresh: no promise on the hot path. */
  cached(host: string | undefined): TenantRow | undefined {
    const hit = this.cache.get(normaliseHost(host));
    return hit && Date.now() - hit.at < TTL_MS ? hit.tenant : undefined;
  }

  async resolve(host: string | undefined): Promise<TenantRow> {
    const domain = normaliseHost(host);
    const hit = this.cache.get(domain);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.tenant;
    const tenant =
      (await findTenantByDomain(this.db, domain)) ??
      (this.fallbackToDefault ? await findDefaultTenant(this.db) : undefined);
    if (!tenant) throw new AppError('TENANT_NOT_FOUND', `No site is configured for host ${domain}.`);
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(domain, { tenant, at: Date.now() });
    return tenant;
  }
}

export function normaliseHost(host: string | undefined): string {
  const h = (host ?? '').trim().toLowerCase();
  const noPort = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]!;
  return noPort.replace(/\.$/, '');
}
