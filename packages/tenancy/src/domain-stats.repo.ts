/** Counts of tenant domains by certificate state and kind, for monitoring (read at scrape time). */
import type { Queryable } from '@platform/db';

export interface DomainStateCount {
  ssl_status: string;
  domain_type: string;
  count: number;
}

export const SSL_STATUSES = ['pending', 'active', 'failed'] as const;
export const DOMAIN_TYPES = ['subdomain', 'custom'] as const;

/** Every known (ssl_status, domain_type) pair, zero when none, so "no failed domain" is a 0, not an absent series. */
export async function countDomainStates(db: Queryable): Promise<DomainStateCount[]> {
  const r = await db.query<DomainStateCount>(
    'SELECT ssl_status, domain_type, count(*)::int AS count FROM tenant_domains GROUP BY ssl_status, domain_type',
  );
  const counts = new Map(r.rows.map((x) => [`${x.ssl_status}/${x.domain_type}`, Number(x.count)]));
  const known = SSL_STATUSES.flatMap((s) => DOMAIN_TYPES.map((t) => ({ ssl_status: s, domain_type: t })));
  const extra = r.rows.filter(
    (x) => !known.some((k) => k.ssl_status === x.ssl_status && k.domain_type === x.domain_type),
  );
  return [
    ...known.map((k) => ({ ...k, count: counts.get(`${k.ssl_status}/${k.domain_type}`) ?? 0 })),
    ...extra.map((x) => ({ ...x, count: Number(x.count) })),
  ];
}
