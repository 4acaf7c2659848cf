/** SQL of OAuth2 applications (restapi_oauth_apps). The client secret is stored as SHA-256 only. */
import { RevocableRowsRepo } from '@platform/credentials';
import type { Queryable } from '@platform/db';

export interface OAuthAppRow {
  id: number;
  name: string;
  client_id: string;
  client_secret_hash: string;
  redirect_uris: string;
  scopes: string;
  run_as_login: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, client_id, client_secret_hash, redirect_uris, scopes, run_as_login, created_at, revoked_at';

export class OAuthAppsRepo extends RevocableRowsRepo<OAuthAppRow> {
  constructor(db: Queryable, tenantId: string) {
    super(db, tenantId, 'restapi_oauth_apps', COLUMNS);
  }

  async insert(
    a: {
      name: string;
      clientId: string;
      secretHash: string;
      redirectUris: string;
      scopes: string;
      runAsLogin: string | null;
    },
    q: Queryable = this.db,
  ): Promise<OAuthAppRow> {
    const r = await q.query<OAuthAppRow>(
      `INSERT INTO restapi_oauth_apps (tenant_id, name, client_id, client_secret_hash, redirect_uris, scopes, run_as_login)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [this.tenantId, a.name, a.clientId, a.secretHash, a.redirectUris, a.scopes, a.runAsLogin],
    );
    return r.rows[0]!;
  }

  async findLiveByClientId(clientId: string): Promise<OAuthAppRow | undefined> {
    const r = await this.db.query<OAuthAppRow>(
      `SELECT ${COLUMNS} FROM restapi_oauth_apps WHERE tenant_id = $1 AND client_id = $2 AND revoked_at IS NULL`,
      [this.tenantId, clientId],
    );
    return r.rows[0];
  }

  async setSecret(id: number, secretHash: string, q: Queryable = this.db): Promise<OAuthAppRow | undefined> {
    const r = await q.query<OAuthAppRow>(
      `UPDATE restapi_oauth_apps SET client_secret_hash = $3 WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [this.tenantId, id, secretHash],
    );
    return r.rows[0];
  }
}
