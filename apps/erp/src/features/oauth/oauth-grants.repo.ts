/** SQL of authorization codes and access/refresh tokens. Every value is looked up by its SHA-256. */
import type { Queryable } from '@platform/db';

export interface CodeRow {
  id: number;
  app_id: number;
  login: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  family_id: string;
  expired: boolean;
  used_at: Date | null;
}

export interface TokenRow {
  id: number;
  kind: 'access' | 'refresh';
  app_id: number;
  login: string;
  scopes: string;
  family_id: string;
  expired: boolean;
  used_at: Date | null;
  revoked_at: Date | null;
}

export class OAuthGrantsRepo {
  constructor(
    private readonly db: Queryable,
    private readonly tenantId: string,
  ) {}

  async insertCode(c: {
    codeHash: string;
    appId: number;
    login: string;
    redirectUri: string;
    scopes: string;
    codeChallenge: string;
    familyId: string;
    ttlS: number;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO restapi_oauth_codes (tenant_id, code_hash, app_id, login, redirect_uri, scopes, code_challenge, family_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))`,
      [this.tenantId, c.codeHash, c.appId, c.login, c.redirectUri, c.scopes, c.codeChallenge, c.familyId, c.ttlS],
    );
  }

  /**
   * Marks the code used and returns it as it was before, in one statement: of two concurrent
   * exchanges exactly one sees `used_at` null.
   */
  async consumeCode(codeHash: string, q: Queryable = this.db): Promise<CodeRow | undefined> {
    const r = await q.query<CodeRow>(
      `UPDATE restapi_oauth_codes c SET used_at = coalesce(c.used_at, now())
         FROM (SELECT id, used_at AS was_used FROM restapi_oauth_codes WHERE tenant_id = $1 AND code_hash = $2 FOR UPDATE) old
        WHERE c.id = old.id
        RETURNING c.id, c.app_id, c.login, c.redirect_uri, c.scopes, c.code_challenge, c.family_id,
                  c.expires_at <= now() AS expired, old.was_used AS used_at`,
      [this.tenantId, codeHash],
    );
    return r.rows[0];
  }

  async insertToken(
    t: {
      kind: 'access' | 'refresh';
      tokenHash: string;
      appId: number;
      login: string;
      scopes: string;
      familyId: string;
      ttlS: number;
    },
    q: Queryable = this.db,
  ): Promise<void> {
    await q.query(
      `INSERT INTO restapi_oauth_tokens (tenant_id, kind, token_hash, app_id, login, scopes, family_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))`,
      [this.tenantId, t.kind, t.tokenHash, t.appId, t.login, t.scopes, t.familyId, t.ttlS],
    );
  }

  async findToken(tokenHash: string): Promise<TokenRow | undefined> {
    const r = await this.db.query<TokenRow>(
      `SELECT id, kind, app_id, login, scopes, family_id, expires_at <= now() AS expired, used_at, revoked_at
         FROM restapi_oauth_tokens WHERE tenant_id = $1 AND token_hash = $2`,
      [this.tenantId, tokenHash],
    );
    return r.rows[0];
  }

  /** Marks a refresh token used; returns the row as it was before (its `used_at` tells a reuse). */
  async consumeRefresh(tokenHash: string, q: Queryable = this.db): Promise<TokenRow | undefined> {
    const r = await q.query<TokenRow>(
      `UPDATE restapi_oauth_tokens t SET used_at = coalesce(t.used_at, now())
         FROM (SELECT id, used_at AS was_used FROM restapi_oauth_tokens
                WHERE tenant_id = $1 AND token_hash = $2 AND kind = 'refresh' FOR UPDATE) old
        WHERE t.id = old.id
        RETURNING t.id, t.kind, t.app_id, t.login, t.scopes, t.family_id, t.expires_at <= now() AS expired,
                  old.was_used AS used_at, t.revoked_at`,
      [this.tenantId, tokenHash],
    );
    return r.rows[0];
  }

  /** Revokes every live token of a family; returns how many were live. */
  async revokeFamily(familyId: string, q: Queryable = this.db): Promise<number> {
    const r = await q.query(
      `UPDATE restapi_oauth_tokens SET revoked_at = now() WHERE tenant_id = $1 AND family_id = $2 AND revoked_at IS NULL`,
      [this.tenantId, familyId],
    );
    return r.rowCount;
  }

  async revokeApp(appId: number, q: Queryable = this.db): Promise<void> {
    await q.query(
      `UPDATE restapi_oauth_tokens SET revoked_at = now() WHERE tenant_id = $1 AND app_id = $2 AND revoked_at IS NULL`,
      [this.tenantId, appId],
    );
  }

  /** Codes and tokens past their expiry are useless; delete old ones now and then. */
  async prune(): Promise<void> {
    await this.db.query(
      `DELETE FROM restapi_oauth_codes WHERE tenant_id = $1 AND expires_at < now() - interval '1 day'`,
      [this.tenantId],
    );
    await this.db.query(
      `DELETE FROM restapi_oauth_tokens WHERE tenant_id = $1 AND expires_at < now() - interval '1 day'`,
      [this.tenantId],
    );
  }
}
