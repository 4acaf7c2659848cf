/** SQL of the customer portal links (table portal_tokens, migration 0125). Only token hashes are stored. */
import type { Queryable } from '@platform/db';

export interface PortalLinkRow {
  id: string;
  tenant_id: string;
  quote_id: string;
  actions: string[];
  expires_at: Date;
  revoked_at: Date | null;
  accepted_at: Date | null;
  accepted_name: string | null;
  signature_key: string | null;
}

const COLUMNS = 'id, tenant_id, quote_id, actions, expires_at, revoked_at, accepted_at, accepted_name, signature_key';

export async function insertLink(
  q: Queryable,
  l: {
    id: string;
    tenantId: string;
    quoteId: string;
    hash: string;
    actions: string[];
    expiresAt: Date;
    createdBy: string;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO portal_tokens (id, tenant_id, quote_id, token_hash, actions, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [l.id, l.tenantId, l.quoteId, l.hash, l.actions, l.expiresAt, l.createdBy],
  );
}

/** The live link with this hash: not revoked, not expired at `now`. */
export async function liveLinkByHash(q: Queryable, hash: string, now: Date): Promise<PortalLinkRow | undefined> {
  const r = await q.query<PortalLinkRow>(
    `SELECT ${COLUMNS} FROM portal_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2`,
    [hash, now],
  );
  return r.rows[0];
}

export async function revokeForQuote(q: Queryable, tenantId: string, quoteId: string, now: Date): Promise<number> {
  const r = await q.query(
    'UPDATE portal_tokens SET revoked_at = $3 WHERE tenant_id = $1 AND quote_id = $2 AND revoked_at IS NULL RETURNING id',
    [tenantId, quoteId, now],
  );
  return r.rows.length;
}

/** The first acceptance of the quote through any of its links (several links may exist). */
export async function acceptanceOf(
  q: Queryable,
  tenantId: string,
  quoteId: string,
): Promise<PortalLinkRow | undefined> {
  const r = await q.query<PortalLinkRow>(
    `SELECT ${COLUMNS} FROM portal_tokens WHERE tenant_id = $1 AND quote_id = $2 AND accepted_at IS NOT NULL
      ORDER BY accepted_at LIMIT 1`,
    [tenantId, quoteId],
  );
  return r.rows[0];
}

export async function markAccepted(
  q: Queryable,
  id: string,
  a: { at: Date; name: string; signatureKey: string },
): Promise<void> {
  await q.query(
    `UPDATE portal_tokens SET accepted_at = $2, accepted_name = $3, signature_key = $4
      WHERE id = $1 AND accepted_at IS NULL`,
    [id, a.at, a.name, a.signatureKey],
  );
}

/** The link's first view; a later view leaves it as it was. */
export async function markOpened(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query('UPDATE portal_tokens SET first_opened_at = $2 WHERE id = $1 AND first_opened_at IS NULL', [id, at]);
}

/** When each quote was first opened through any of its links (quotes never opened are absent). */
export async function firstOpened(q: Queryable, tenantId: string, quoteIds: string[]): Promise<Map<string, Date>> {
  if (!quoteIds.length) return new Map();
  const r = await q.query<{ quote_id: string; at: Date }>(
    `SELECT quote_id, min(first_opened_at) AS at FROM portal_tokens
      WHERE tenant_id = $1 AND quote_id = ANY($2::uuid[]) AND first_opened_at IS NOT NULL GROUP BY quote_id`,
    [tenantId, quoteIds],
  );
  return new Map(r.rows.map((x) => [x.quote_id, new Date(x.at)]));
}
