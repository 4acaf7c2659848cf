/** SQL of the REST API keys (restapi_keys). Keys are stored as SHA-256 only. */
import type { Queryable } from '@platform/db';

import { RevocableRowsRepo } from './revocable-rows.repo.js';

export interface ApiKeyRow {
  id: number;
  login: string;
  description: string;
  prefix: string;
  scopes: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, login, description, prefix, scopes, created_at, last_used_at, revoked_at';

export class ApiKeysRepo extends RevocableRowsRepo<ApiKeyRow> {
  constructor(db: Queryable, tenantId: string) {
    super(db, tenantId, 'restapi_keys', COLUMNS);
  }

  async insert(
    k: { login: string; description: string; prefix: string; keyHash: string; scopes: string },
    q: Queryable = this.db,
  ): Promise<ApiKeyRow> {
    const r = await q.query<ApiKeyRow>(
      `INSERT INTO restapi_keys (tenant_id, login, description, prefix, key_hash, scopes) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [this.tenantId, k.login, k.description, k.prefix, k.keyHash, k.scopes],
    );
    return r.rows[0]!;
  }

  async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    const r = await this.db.query<ApiKeyRow>(
      `SELECT ${COLUMNS} FROM restapi_keys WHERE tenant_id = $1 AND key_hash = $2`,
      [this.tenantId, keyHash],
    );
    return r.rows[0];
  }

  /** At most one write a minute per key: "last used" does not need to cost a write per request. */
  async touch(id: number): Promise<void> {
    await this.db.query(
      `UPDATE restapi_keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
