/**
 * Sign-in sessions: a session is one refresh-token family. Every refresh exchanges the token for a
 * new one (rotation); presenting a token that was already exchanged means two parties hold it, so
 * the whole session is revoked and every token of it (refresh and access) stops working. Two
 * refreshes racing with one token are the same case: the session row is locked, the first wins,
 * the second is reuse. Refresh tokens expire REFRESH_TOKEN_TTL_S after their issue (sliding), and
 * never after the session's absolute end (REFRESH_SESSION_MAX_S after sign-in).
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import { type AccessTokenKeys, issueAccessToken } from '../auth/access-token.js';
import type { Role } from '../auth/principal.js';
import { profileIn, type ProfileRow } from './accounts.repo.js';
import { hashToken, newSecretToken, TOKEN_SHAPE } from './secret-token.js';
import {
  findTokenByHash,
  insertRefreshToken,
  insertSession,
  lockSession,
  markRotated,
  revokeSession,
  revokeUserSessions,
  tokenById,
} from './sessions.repo.js';

export interface SignInAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
  tenant: { id: string; slug: string; name: string };
  user: { id: string; email: string; name: string; role: Role };
}

export interface SessionConfig {
  ACCESS_TOKEN_TTL_S: number;
  REFRESH_TOKEN_TTL_S: number;
  REFRESH_SESSION_MAX_S: number;
}

export interface ClientInfo {
  ip: string;
  userAgent?: string | undefined;
}

type Outcome = { kind: 'ok'; answer: SignInAnswer } | { kind: 'reused' } | { kind: 'invalid' } | { kind: 'suspended' };

const invalid = () => new AppError('TOKEN_INVALID', 'The refresh token is not valid (expired, revoked or unknown).');

export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly keys: AccessTokenKeys,
    private readonly audit: AuditLog,
    private readonly c: SessionConfig,
  ) {}

  /** Starts a session inside the caller's tenant-scoped transaction and answers the sign-in. */
  async start(tx: Queryable, p: ProfileRow, client: ClientInfo): Promise<SignInAnswer> {
    const now = this.clock.now();
    const sessionId = await insertSession(tx, {
      tenantId: p.tenant_id,
      userId: p.user_id,
      absoluteExpiresAt: new Date(now.getTime() + this.c.REFRESH_SESSION_MAX_S * 1000),
      ip: client.ip || null,
      userAgent: client.userAgent ?? null,
    });
    const refresh = await this.issueRefresh(tx, p.tenant_id, sessionId, now, Infinity);
    return this.answer(p, sessionId, refresh);
  }

  async refresh(token: string, client: ClientInfo): Promise<SignInAnswer> {
    if (!TOKEN_SHAPE.test(token)) throw invalid();
    const found = await findTokenByHash(this.db, hashToken(token));
    if (!found) throw invalid();
    const outcome = await withTenant(this.db, found.tenant_id, (tx) => this.rotate(tx, found.id, client));
    if (outcome.kind === 'ok') return outcome.answer;
    if (outcome.kind === 'reused')
      throw new AppError(
        'TOKEN_REUSED',
        'This refresh token was already used. The session is ended for safety; sign in again.',
      );
    if (outcome.kind === 'suspended') throw new AppError('TENANT_SUSPENDED', 'This company account is suspended.');
    throw invalid();
  }

  private async rotate(tx: Queryable, tokenId: string, client: ClientInfo): Promise<Outcome> {
    const now = this.clock.now();
    const first = await tokenById(tx, tokenId);
    const session = first && (await lockSession(tx, first.session_id));
    // Re-read after the lock: a concurrent refresh may have rotated it meanwhile.
    const token = session && (await tokenById(tx, tokenId));
    if (!session || !token) return { kind: 'invalid' };
    if (token.rotated_at) {
      if (!session.revoked_at) {
        await revokeSession(tx, session.id, 'reuse', now);
        await this.audit.record(tx, {
          tenantId: session.tenant_id,
          actor: { kind: 'user', id: session.user_id },
          action: 'auth.token_reuse',
          target: { type: 'session', id: session.id },
          ip: client.ip,
        });
      }
      return { kind: 'reused' };
    }
    if (session.revoked_at || token.expires_at <= now || session.absolute_expires_at <= now) return { kind: 'invalid' };
    const p = await profileIn(tx, session.tenant_id, session.user_id);
    if (!p || p.disabled_at) {
      await revokeSession(tx, session.id, 'removed', now);
      return { kind: 'invalid' };
    }
    if (p.status === 'suspended' || p.status === 'deleted') return { kind: 'suspended' };
    if (p.status !== 'active') return { kind: 'invalid' };
    await markRotated(tx, token.id, now);
    const refresh = await this.issueRefresh(
      tx,
      session.tenant_id,
      session.id,
      now,
      session.absolute_expires_at.getTime(),
    );
    return { kind: 'ok', answer: await this.answer(p, session.id, refresh) };
  }

  /** Ends the session the token belongs to (whatever its state); unknown tokens change nothing. */
  async logout(token: string, client: ClientInfo): Promise<void> {
    if (!TOKEN_SHAPE.test(token)) return;
    const found = await findTokenByHash(this.db, hashToken(token));
    if (!found) return;
    await withTenant(this.db, found.tenant_id, async (tx) => {
      const s = await lockSession(tx, found.session_id);
      if (!s || s.revoked_at) return;
      await revokeSession(tx, s.id, 'logout', this.clock.now());
      await this.audit.record(tx, {
        tenantId: s.tenant_id,
        actor: { kind: 'user', id: s.user_id },
        action: 'auth.logout',
        target: { type: 'session', id: s.id },
        ip: client.ip,
      });
    });
  }

  /** Ends every session of the user in the tenant; returns how many were live. */
  async logoutAll(tenantId: string, userId: string, client: ClientInfo): Promise<number> {
    return withTenant(this.db, tenantId, async (tx) => {
      const n = await revokeUserSessions(tx, tenantId, userId, 'logout_all', this.clock.now());
      await this.audit.record(tx, {
        tenantId,
        actor: { kind: 'user', id: userId },
        action: 'auth.logout_all',
        target: { type: 'user', id: userId },
        ip: client.ip,
        detail: { sessions: n },
      });
      return n;
    });
  }

  private async issueRefresh(tx: Queryable, tenantId: string, sessionId: string, now: Date, endMs: number) {
    const t = newSecretToken();
    const expiresAt = new Date(Math.min(now.getTime() + this.c.REFRESH_TOKEN_TTL_S * 1000, endMs));
    await insertRefreshToken(tx, { tenantId, sessionId, hash: t.hash, expiresAt });
    return t.token;
  }

  private async answer(p: ProfileRow, sessionId: string, refreshToken: string): Promise<SignInAnswer> {
    const principal = { userId: p.user_id, tenantId: p.tenant_id, role: p.role, email: p.email, sessionId };
    return {
      access_token: await issueAccessToken(this.keys, principal, this.c.ACCESS_TOKEN_TTL_S),
      refresh_token: refreshToken,
      expires_in: this.c.ACCESS_TOKEN_TTL_S,
      token_type: 'Bearer',
      tenant: { id: p.tenant_id, slug: p.slug, name: p.tenant_name },
      user: { id: p.user_id, email: p.email, name: p.user_name, role: p.role },
    };
  }
}
