/**
 * Odoo-style API keys (`res.users.apikeys`): 40 lowercase hex characters (20 random bytes, no prefix),
 * shown once. Odoo stores a pbkdf2 hash; a key with 160 random bits cannot be guessed or brute-forced
 * from its hash, so a slow hash buys nothing here: we store SHA-256 of the key, plus its first 8
 * characters as a lookup index, and compare in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import type { Queryable } from '@platform/db';

import { qt } from '../schema.js';

export const API_KEY_RE = /^[0-9a-f]{40}$/;
export const INDEX_SIZE = 8;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface ApiKeyInfo {
  id: number;
  name: string;
  userId: number;
  login: string;
  scope: string | null;
  createDate: string;
  lastUsed: string | null;
}

export async function createApiKey(
  q: Queryable,
  schema: string,
  uid: number,
  name: string,
  scope: string | null = null,
) {
  const key = randomBytes(20).toString('hex');
  const r = await q.query<{ id: number }>(
    `INSERT INTO ${qt(schema, 'res_users_apikeys')} (name, user_id, scope, index, key) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [name, uid, scope, key.slice(0, INDEX_SIZE), sha256(key)],
  );
  return { id: r.rows[0]!.id, key };
}

/** True when `key` is a live RPC key of user `uid` (global scope or `rpc`). */
export async function checkApiKey(q: Queryable, schema: string, uid: number, key: string): Promise<boolean> {
  if (!API_KEY_RE.test(key)) return false;
  const table = qt(schema, 'res_users_apikeys');
  const r = await q.query<{ id: number; key: string }>(
    `SELECT id, key FROM ${table} WHERE index = $1 AND user_id = $2 AND (scope IS NULL OR scope = 'rpc')`,
    [key.slice(0, INDEX_SIZE), uid],
  );
  const digest = Buffer.from(sha256(key), 'hex');
  const hit = r.rows.find((row) => timingSafeEqual(Buffer.from(row.key, 'hex'), digest));
  if (!hit) return false;
  await q.query(`UPDATE ${table} SET last_used = (now() at time zone 'utc') WHERE id = $1`, [hit.id]);
  return true;
}

export async function listApiKeys(q: Queryable, schema: string): Promise<ApiKeyInfo[]> {
  const r = await q.query<Record<string, unknown>>(
    `SELECT k.id, k.name, k.user_id, u.login, k.scope,
            to_char(k.create_date, 'YYYY-MM-DD HH24:MI:SS') AS create_date,
            to_char(k.last_used, 'YYYY-MM-DD HH24:MI:SS') AS last_used
       FROM ${qt(schema, 'res_users_apikeys')} k JOIN ${qt(schema, 'res_users')} u ON u.id = k.user_id ORDER BY k.id`,
  );
  return r.rows.map((x) => ({
    id: x.id as number,
    name: x.name as string,
    userId: x.user_id as number,
    login: x.login as string,
    scope: (x.scope as string | null) ?? null,
    createDate: x.create_date as string,
    lastUsed: (x.last_used as string | null) ?? null,
  }));
}

/** Revoking deletes the row, as Odoo's `_remove` does. */
export async function revokeApiKey(q: Queryable, schema: string, id: number): Promise<boolean> {
  const r = await q.query(`DELETE FROM ${qt(schema, 'res_users_apikeys')} WHERE id = $1`, [id]);
  return r.rowCount > 0;
}
