/**
 * The authorization server of the REST API: authorization code grant with PKCE S256 and a consent
 * step, short-lived access tokens, rotating refresh tokens. Implements the RFC 9700 / ASVS 10.4 rules:
 * exact redirect URIs, one-use codes (reuse revokes the tokens issued from them), codes at most
 * 10 minutes, PKCE required and `plain` refused, refresh reuse revokes the token family, and no
 * implicit or password grant.
 */
import { randomUUID } from 'node:crypto';

import { type AuditService, newSecret, parseScopes, sha256 } from '@platform/credentials';
import type { Db } from '@platform/db';

import { OAuthError } from './oauth.errors.js';
import type { OAuthAppRow } from './oauth-apps.repo.js';
import type { OAuthAppsService } from './oauth-apps.service.js';
import type { OAuthGrantsRepo, TokenRow } from './oauth-grants.repo.js';
import { S256_CHALLENGE_RE, verifierMatches } from './pkce.js';

export interface OAuthTtls {
  codeS: number;
  accessS: number;
  refreshS: number;
}

export type AuthorizeParams = Partial<
  Record<
    'response_type' | 'client_id' | 'redirect_uri' | 'scope' | 'state' | 'code_challenge' | 'code_challenge_method',
    string
  >
>;

/** `fatal`: shown to the user, never redirected (unknown client or unregistered redirect URI). */
export type AuthorizeCheck =
  | { kind: 'fatal'; message: string }
  | { kind: 'redirect'; url: string }
  | {
      kind: 'ok';
      app: OAuthAppRow;
      redirectUri: string;
      scopes: string[];
      state: string | undefined;
      codeChallenge: string;
    };

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export function errorRedirect(
  redirectUri: string,
  error: string,
  description: string,
  state: string | undefined,
  issuer: string,
): string {
  const u = new URL(redirectUri);
  u.searchParams.set('error', error);
  u.searchParams.set('error_description', description);
  if (state !== undefined) u.searchParams.set('state', state);
  u.searchParams.set('iss', issuer);
  return u.toString();
}

export class OAuthService {
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly apps: OAuthAppsService,
    private readonly grants: OAuthGrantsRepo,
    private readonly audit: AuditService,
    private readonly ttl: OAuthTtls,
  ) {}

  async checkAuthorize(p: AuthorizeParams, issuer: string): Promise<AuthorizeCheck> {
    const app = p.client_id ? await this.apps.findByClientId(p.client_id) : undefined;
    if (!app) return { kind: 'fatal', message: 'Unknown or missing client_id.' };
    const registered = app.redirect_uris.split('\n');
    // Exact string comparison: a trailing slash or one character more is a different URI.
    if (!p.redirect_uri || !registered.includes(p.redirect_uri)) {
      return { kind: 'fatal', message: 'The redirect_uri is missing or is not registered for this application.' };
    }
    const fail = (error: string, description: string): AuthorizeCheck => ({
      kind: 'redirect',
      url: errorRedirect(p.redirect_uri!, error, description, p.state, issuer),
    });
    if (p.response_type !== 'code')
      return fail('unsupported_response_type', 'Only response_type=code is supported (no implicit grant).');
    if (!p.code_challenge)
      return fail('invalid_request', 'PKCE is required: send code_challenge and code_challenge_method=S256.');
    if (p.code_challenge_method !== 'S256')
      return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
    if (!S256_CHALLENGE_RE.test(p.code_challenge))
      return fail('invalid_request', 'code_challenge must be BASE64URL(SHA-256(code_verifier)).');
    const allowed = app.scopes.split(' ');
    let scopes: string[];
    try {
      scopes = p.scope ? parseScopes(p.scope) : allowed;
    } catch {
      return fail('invalid_scope', 'The requested scope is malformed.');
    }
    if (!scopes.every((s) => allowed.includes(s)))
      return fail('invalid_scope', 'The requested scope exceeds what the application is registered for.');
    return { kind: 'ok', app, redirectUri: p.redirect_uri, scopes, state: p.state, codeChallenge: p.code_challenge };
  }

  /** After the user logged in and approved: a one-use code, and the URL to send the browser to. */
  async issueCode(
    ok: Extract<AuthorizeCheck, { kind: 'ok' }>,
    login: string,
    issuer: string,
    clientIp?: string,
  ): Promise<string> {
    const code = newSecret('');
    await this.grants.insertCode({
      codeHash: sha256(code),
      appId: ok.app.id,
      login,
      redirectUri: ok.redirectUri,
      scopes: ok.scopes.join(' '),
      codeChallenge: ok.codeChallenge,
      familyId: randomUUID(),
      ttlS: Math.min(this.ttl.codeS, 600),
    });
    if (Date.now() - this.lastPrune > 10 * 60_000) {
      this.lastPrune = Date.now();
      await this.grants.prune().catch(() => undefined);
    }
    await this.audit.record({
      event: 'consent_granted',
      appId: ok.app.id,
      login,
      clientIp: clientIp ?? null,
      detail: { scopes: ok.scopes.join(' ') },
    });
    const u = new URL(ok.redirectUri);
    u.searchParams.set('code', code);
    if (ok.state !== undefined) u.searchParams.set('state', ok.state);
    u.searchParams.set('iss', issuer);
    return u.toString();
  }

  async exchangeCode(
    app: OAuthAppRow,
    body: Record<string, string | undefined>,
    clientIp?: string,
  ): Promise<TokenResponse> {
    if (!body.code) throw new OAuthError('invalid_request', 'code is required');
    const row = await this.grants.consumeCode(sha256(body.code));
    if (!row) throw new OAuthError('invalid_grant', 'The authorization code is invalid.');
    if (row.used_at) {
      await this.revokeFamily(row.family_id, row.app_id, row.login, 'authorization_code_reuse', clientIp);
      throw new OAuthError(
        'invalid_grant',
        'The authorization code was already used; the tokens issued from it are revoked.',
      );
    }
    if (row.app_id !== app.id)
      throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
    if (row.expired) throw new OAuthError('invalid_grant', 'The authorization code has expired.');
    if (body.redirect_uri !== row.redirect_uri)
      throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request.');
    if (!body.code_verifier) throw new OAuthError('invalid_grant', 'code_verifier is required (PKCE).');
    if (!verifierMatches(body.code_verifier, row.code_challenge))
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
    return this.issueTokens(app.id, row.login, row.scopes, row.family_id);
  }

  async refresh(app: OAuthAppRow, body: Record<string, string | undefined>, clientIp?: string): Promise<TokenResponse> {
    if (!body.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const row = await this.grants.consumeRefresh(sha256(body.refresh_token));
    if (!row || row.revoked_at) throw new OAuthError('invalid_grant', 'The refresh token is invalid or revoked.');
    if (row.used_at || row.app_id !== app.id) {
      // A rotated token came back (or another client holds it): it leaked, so the whole family goes.
      await this.revokeFamily(
        row.family_id,
        row.app_id,
        row.login,
        row.used_at ? 'refresh_token_reuse' : 'refresh_token_wrong_client',
        clientIp,
      );
      throw new OAuthError(
        'invalid_grant',
        'The refresh token was already used; every token of this grant is revoked.',
      );
    }
    if (row.expired) throw new OAuthError('invalid_grant', 'The refresh token has expired.');
    let scopes = row.scopes;
    if (body.scope) {
      const granted = row.scopes.split(' ');
      let asked: string[];
      try {
        asked = parseScopes(body.scope);
      } catch {
        throw new OAuthError('invalid_scope', 'The requested scope is malformed.');
      }
      if (!asked.every((s) => granted.includes(s)))
        throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scope.');
      scopes = asked.join(' ');
    }
    return this.issueTokens(app.id, row.login, scopes, row.family_id);
  }

  /** The live access token, or undefined. */
  async verifyAccessToken(token: string): Promise<TokenRow | undefined> {
    if (!token.startsWith('erpat_')) return undefined;
    const row = await this.grants.findToken(sha256(token));
    if (!row || row.kind !== 'access' || row.revoked_at || row.expired) return undefined;
    return row;
  }

  /** RFC 7009: revoking any token of a grant ends the grant. Unknown tokens are not an error. */
  async revoke(app: OAuthAppRow, token: string | undefined, clientIp?: string): Promise<void> {
    if (!token) throw new OAuthError('invalid_request', 'token is required');
    const row = await this.grants.findToken(sha256(token));
    if (row && row.app_id === app.id)
      await this.revokeFamily(row.family_id, row.app_id, row.login, 'revoked_by_client', clientIp);
  }

  private async revokeFamily(
    familyId: string,
    appId: number,
    login: string,
    reason: string,
    clientIp?: string,
  ): Promise<void> {
    const n = await this.grants.revokeFamily(familyId);
    await this.audit.record({
      event: 'token_family_revoked',
      appId,
      login,
      clientIp: clientIp ?? null,
      detail: { reason, family_id: familyId, tokens_revoked: n },
    });
  }

  private async issueTokens(appId: number, login: string, scopes: string, familyId: string): Promise<TokenResponse> {
    const access = newSecret('erpat_');
    const refresh = newSecret('erprt_');
    await this.db.transaction(async (q) => {
      const base = { appId, login, scopes, familyId };
      await this.grants.insertToken({ ...base, kind: 'access', tokenHash: sha256(access), ttlS: this.ttl.accessS }, q);
      await this.grants.insertToken(
        { ...base, kind: 'refresh', tokenHash: sha256(refresh), ttlS: this.ttl.refreshS },
        q,
      );
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.ttl.accessS,
      refresh_token: refresh,
      scope: scopes,
    };
  }
}
