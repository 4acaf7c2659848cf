/**
 * Web sessions, server-side, in the ERP's own database beside its catalog (`public.erp_databases`):
 * a session belongs to one ERP database, which is the tenant boundary of the ERP host. Only a
 * SHA-256 of the session id is stored, so a database dump does not hand out live sessions.
 */
import type { Db } from '@platform/db';

const TABLE = 'public.erp_web_sessions';

export interface SessionRow {
  db: string;
  uid: number;
  login: string;
  /** Fingerprint of the user's credential at login (Odoo's session token). */
  token: string;
  expiresAt: Date;
}

export class SessionRepo {
  private ready: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  /** Created once per process, like the catalog; a failure is not remembered. */
  private table(): Promise<void> {
    this.ready ??= this.db
      .transaction(async (q) => {
        await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [TABLE]);
        await q.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (
          sid_hash text PRIMARY KEY,
          db text NOT NULL,
          uid integer NOT NULL,
          login text NOT NULL,
          token text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          expires_at timestamptz NOT NULL)`);
        await q.query(`CREATE INDEX IF NOT EXISTS erp_web_sessions_expiry ON ${TABLE} (expires_at)`);
      })
      .catch((e: unknown) => {
        this.ready = undefined;
        throw e;
      });
    return this.ready;
  }

  async insert(sidHash: string, s: SessionRow): Promise<void> {
    await this.table();
    await this.db.query(
      `INSERT INTO ${TABLE} (sid_hash, db, uid, login, token, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [sidHash, s.db, s.uid, s.login, s.token, s.expiresAt],
    );
  }

  /** The live session with this id hash, or undefined (unknown or expired). */
  async find(sidHash: string): Promise<SessionRow | undefined> {
    await this.table();
    const r = await this.db.query<{ db: string; uid: number; login: string; token: string; expires_at: Date }>(
      `SELECT db, uid, login, token, expires_at FROM ${TABLE} WHERE sid_hash = $1 AND expires_at > now()`,
      [sidHash],
    );
    const row = r.rows[0];
    return row && { db: row.db, uid: row.uid, login: row.login, token: row.token, expiresAt: new Date(row.expires_at) };
  }

  async extend(sidHash: string, expiresAt: Date): Promise<void> {
    await this.db.query(`UPDATE ${TABLE} SET expires_at = $2 WHERE sid_hash = $1`, [sidHash, expiresAt]);
  }

  async delete(sidHash: string): Promise<void> {
    await this.table();
    await this.db.query(`DELETE FROM ${TABLE} WHERE sid_hash = $1`, [sidHash]);
  }

  async deleteExpired(): Promise<number> {
    await this.table();
    return (await this.db.query(`DELETE FROM ${TABLE} WHERE expires_at <= now()`)).rowCount;
  }
}
