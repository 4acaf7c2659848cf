/** SQL of the token refresh: the connection's refresh lease and the compare-and-set that stores rotated tokens. */
import type { Queryable } from '@platform/db';

/**
 * Takes the connection's refresh lease for `leaseMs` when its refresh token is still `refreshEnc` and
 * nobody holds the lease (or theirs expired). False: another refresher has it, or already rotated.
 */
export async function takeRefreshLease(
  db: Queryable,
  id: string,
  refreshEnc: string,
  leaseMs: number,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE accounting_connections SET refresh_lease_until = now() + make_interval(secs => $3::double precision / 1000)
     WHERE id = $1 AND refresh_token_enc = $2 AND (refresh_lease_until IS NULL OR refresh_lease_until < now())
     RETURNING id`,
    [id, refreshEnc, leaseMs],
  );
  return r.rows.length > 0;
}

/**
 * Compare-and-set after a refresh: writes `patch` and releases the lease only if the row still has the
 * refresh token that was used (`refreshEnc`). False: the row changed meanwhile (disconnected, connected
 * again) and nothing was written.
 */
export async function storeAfterRefresh(
  db: Queryable,
  id: string,
  refreshEnc: string,
  patch: Partial<
    Record<'access_token_enc' | 'refresh_token_enc' | 'token_expires_at' | 'status' | 'status_detail', unknown>
  >,
): Promise<boolean> {
  const keys = Object.keys(patch);
  const sets = keys.map((k, i) => `${k} = $${i + 3}`).join(', ');
  const r = await db.query(
    `UPDATE accounting_connections SET ${sets}${keys.length ? ', ' : ''}refresh_lease_until = NULL, updated_at = now()
     WHERE id = $1 AND refresh_token_enc = $2 RETURNING id`,
    [id, refreshEnc, ...keys.map((k) => (patch as Record<string, unknown>)[k])],
  );
  return r.rows.length > 0;
}
