/** SQL of calendar_feeds: a technician's feed token (its SHA-256 only). */
import type { Queryable } from '@platform/db';

/** Creates the technician's feed or replaces its token (the old URL stops at once). */
export async function putFeed(tx: Queryable, tenantId: string, userId: string, tokenHash: string): Promise<Date> {
  const r = await tx.query<{ created_at: Date }>(
    `INSERT INTO calendar_feeds (tenant_id, user_id, token_hash) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id, user_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()
     RETURNING created_at`,
    [tenantId, userId, tokenHash],
  );
  return r.rows[0]!.created_at;
}

export async function deleteFeed(tx: Queryable, tenantId: string, userId: string): Promise<boolean> {
  const r = await tx.query('DELETE FROM calendar_feeds WHERE tenant_id = $1 AND user_id = $2', [tenantId, userId]);
  return r.rowCount > 0;
}

export async function feedOf(
  tx: Queryable,
  tenantId: string,
  userId: string,
): Promise<{ created_at: Date } | undefined> {
  const r = await tx.query<{ created_at: Date }>(
    'SELECT created_at FROM calendar_feeds WHERE tenant_id = $1 AND user_id = $2',
    [tenantId, userId],
  );
  return r.rows[0];
}

/**
 * The feed a token opens, before any tenant is known (the URL is the only credential): read outside
 * a tenant's scope, by the unique hash; everything after runs in the tenant it names.
 */
export async function feedByHash(
  db: Queryable,
  tokenHash: string,
): Promise<{ tenant_id: string; user_id: string } | undefined> {
  const r = await db.query<{ tenant_id: string; user_id: string }>(
    'SELECT tenant_id, user_id FROM calendar_feeds WHERE token_hash = $1',
    [tokenHash],
  );
  return r.rows[0];
}
