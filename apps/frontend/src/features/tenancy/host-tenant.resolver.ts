/**
 * Host → tenant for the frontend: a tenant's verified domain, else `<slug>.<TENANTS_HOST>`, else the
 * default tenant on the hosts of a single-company install (localhost); anything else is unresolved
 * (the not-found page).
 */
import type { TenantHostResolver } from '@platform/tenancy';

export interface HostTenant {
  id: string;
  slug: string;
  name: string;
}

export interface HostTenants {
  resolve(host: string | undefined): Promise<HostTenant | undefined>;
}

/**
 * The platform's resolver (@platform/tenancy: an in-process cache that every process invalidates
 * through PostgreSQL LISTEN/NOTIFY when a tenant or domain changes) behind the frontend's interface.
 * Its listener runs while the app is up (frontend.http-app.ts starts and stops it).
 */
export function sharedHostTenants(
  resolver: TenantHostResolver,
): HostTenants & { start(): Promise<void>; stop(): Promise<void> } {
  return {
    resolve: async (host) => {
      const t = resolver.cached(host) ?? (await resolver.resolve(host));
      return t ? { id: t.tenantId, slug: t.slug, name: t.name } : undefined;
    },
    start: () => resolver.start(),
    stop: () => resolver.stop(),
  };
}

/** Lower case, no port, no trailing dot; an IPv6 literal keeps its brackets. */
export function normaliseHost(host: string | undefined): string {
  const h = (host ?? '').trim().toLowerCase();
  const noPort = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]!;
  return noPort.replace(/\.$/, '');
}
