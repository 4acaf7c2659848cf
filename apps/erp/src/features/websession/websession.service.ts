/**
 * Odoo's web sessions: a login with the password (never an API key) opens a server-side session
 * bound to one ERP database and user; it expires after `ttlSeconds` without use, ends at logout, and
 * dies when the user's password changes or the user is archived (Odoo 15's session token).
 */
import { createHash, randomBytes } from 'node:crypto';

import { OdooError } from '@platform/erp-embedded';

import type { RpcGateway } from '../rpc/rpc-gateway.js';
import type { SessionRepo } from './session.repo.js';

export const SESSION_EXPIRED = 'odoo.http.SessionExpiredException';
export const sessionExpired = () => new OdooError(SESSION_EXPIRED, 'Session expired');
/** Odoo 15 keeps an idle session a week. */
export const DEFAULT_SESSION_TTL_S = 7 * 86_400;

const hash = (sid: string) => createHash('sha256').update(sid).digest('hex');

export interface LiveSession {
  db: string;
  uid: number;
}

export class WebSessions {
  private created = 0;

  constructor(
    private readonly gateway: RpcGateway,
    private readonly repo: SessionRepo,
    readonly ttlSeconds: number = DEFAULT_SESSION_TTL_S,
    private readonly now: () => number = Date.now,
  ) {}

  /** Logs in and opens a new session (the previous one, if any, is closed: Odoo rotates the id). */
  async authenticate(
    db: string,
    login: string,
    password: string,
    clientIp: string,
    previousSid?: string,
  ): Promise<{ sid: string } & LiveSession> {
    const uid = await this.gateway.login(db, login, password, clientIp);
    if (previousSid) await this.repo.delete(hash(previousSid));
    const token = await this.gateway.erp.sessionToken(db, uid);
    if (!token) throw new OdooError('odoo.exceptions.AccessDenied', 'Access Denied');
    const sid = randomBytes(20).toString('hex');
    await this.repo.insert(hash(sid), {
      db,
      uid,
      login,
      token,
      expiresAt: new Date(this.now() + this.ttlSeconds * 1000),
    });
    if (++this.created % 100 === 0) await this.repo.deleteExpired();
    return { sid, db, uid };
  }

  /**
   * The session's database and user. SessionExpired when it is unknown, expired, asked for another
   * database than its own, or its user's credential changed since the login.
   */
  async resolve(sid: string | undefined, requestedDb?: string): Promise<LiveSession> {
    if (!sid) throw sessionExpired();
    const row = await this.repo.find(hash(sid));
    if (!row) throw sessionExpired();
    if (requestedDb !== undefined && requestedDb !== row.db) throw sessionExpired();
    const token = await this.gateway.erp.sessionToken(row.db, row.uid).catch(() => undefined);
    if (token !== row.token) {
      await this.repo.delete(hash(sid));
      throw sessionExpired();
    }
    // Sliding expiry, written at most once a minute per session.
    const expiresAt = this.now() + this.ttlSeconds * 1000;
    if (expiresAt - row.expiresAt.getTime() > 60_000) await this.repo.extend(hash(sid), new Date(expiresAt));
    return { db: row.db, uid: row.uid };
  }

  async destroy(sid: string): Promise<void> {
    await this.repo.delete(hash(sid));
  }
}
