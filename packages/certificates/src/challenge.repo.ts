/** SQL of the http-01 challenge answers (table acme_challenges). */
import type { Queryable } from '@platform/db';

export class ChallengeRepo {
  constructor(private readonly db: Queryable) {}

  async put(row: {
    token: string;
    tenantId: string;
    domain: string;
    keyAuthorization: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO acme_challenges (token, tenant_id, domain, key_authorization, expires_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (token) DO UPDATE SET key_authorization = EXCLUDED.key_authorization, expires_at = EXCLUDED.expires_at`,
      [row.token, row.tenantId, row.domain, row.keyAuthorization, row.expiresAt],
    );
  }

  /** The answer for a token on the host it was asked for; expired rows answer nothing. */
  async find(token: string, host: string, now: Date): Promise<string | undefined> {
    const r = await this.db.query<{ key_authorization: string }>(
      'SELECT key_authorization FROM acme_challenges WHERE token = $1 AND domain = $2 AND expires_at > $3',
      [token, host, now],
    );
    return r.rows[0]?.key_authorization;
  }

  async remove(token: string): Promise<void> {
    await this.db.query('DELETE FROM acme_challenges WHERE token = $1', [token]);
  }

  async removeExpired(now: Date): Promise<void> {
    await this.db.query('DELETE FROM acme_challenges WHERE expires_at <= $1', [now]);
  }
}
