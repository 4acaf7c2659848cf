/**
 * OAuth side of the LOCAL accounting stand-in (Xero's rules): one-use authorization codes
 * (5 min) bound to client, exact redirect URI and an S256 PKCE challenge; access tokens of
 * 30 min; refresh tokens that rotate, expire after 60 days unused and stay valid for a 30-min
 * grace after rotation; reuse of a code revokes what it issued. No HTTP here: the server
 * module maps these results to responses.
 */
import { randomBytes } from 'node:crypto';

import { escapeHtml } from '@platform/web/escape-html.js';

import { pkceChallengeS256 } from '../pkce.js';

export const LOCAL_CODE_TTL_MS = 5 * 60_000;
export const LOCAL_ACCESS_TTL_MS = 30 * 60_000;
export const LOCAL_REFRESH_GRACE_MS = 30 * 60_000;
export const LOCAL_REFRESH_IDLE_MS = 60 * 24 * 60 * 60_000;

export interface LocalGrant {
  id: string;
  scope: string;
  tenantIds: string[];
  refreshToken: string;
  previous: { token: string; graceUntilMs: number }[];
  lastUsedMs: number;
  revoked: boolean;
}

interface CodeRecord {
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  issuedMs: number;
  used: boolean;
  grantId: string | undefined;
}

export type TokenResult =
  | {
      ok: true;
      body: { access_token: string; expires_in: number; token_type: 'Bearer'; refresh_token?: string; scope: string };
    }
  | { ok: false; status: number; body: { error: string; error_description?: string } };

export type AuthorizeResult = { ok: true; location: string } | { ok: false; status: number; page: string };

const token = (): string => randomBytes(24).toString('base64url');
const fail = (error: string, error_description?: string, status = 400): TokenResult => ({
  ok: false,
  status,
  body: { error, ...(error_description ? { error_description } : {}) },
});
const esc = escapeHtml;

export class LocalOAuthState {
  private readonly codes = new Map<string, CodeRecord>();
  readonly grants = new Map<string, LocalGrant>();
  /** access token → grant id and expiry. */
  readonly accessTokens = new Map<string, { grantId: string; expiresMs: number }>();

  constructor(
    private readonly cfg: {
      clientId: string;
      clientSecret: string;
      redirectUris: string[];
      tenantIds: () => string[];
      /** Scopes the app may request at all; others are refused with `invalid_scope`. */
      allowedScopes: string[];
      /** The user's consent: only these of the requested scopes are granted (undefined: all). */
      consent: () => string[] | undefined;
    },
    private readonly nowMs: () => number,
  ) {}

  authorize(q: Record<string, string | undefined>): AuthorizeResult {
    /** `html` must already be escaped; values go through `code()`. */
    const page = (html: string): AuthorizeResult => ({
      ok: false,
      status: 400,
      page: `<!doctype html><title>Error</title><h1>Error</h1><p>${html}</p>`,
    });
    const code = (v: string): string => `<code>${esc(v)}</code>`;
    if (q['client_id'] !== this.cfg.clientId)
      return page(`unauthorized_client: unknown client_id ${code(q['client_id'] ?? '')}`);
    const redirectUri = q['redirect_uri'] ?? '';
    // Exact string match (RFC 6749 §3.1.2): never redirect to an unregistered URI.
    if (!this.cfg.redirectUris.includes(redirectUri)) {
      return page(
        `invalid_request: redirect_uri ${code(redirectUri)} does not exactly match a registered redirect URI (registered: ${this.cfg.redirectUris.map(code).join(', ')})`,
      );
    }
    const back = (params: Record<string, string>): AuthorizeResult => {
      const u = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
      if (q['state'] !== undefined) u.searchParams.set('state', q['state']);
      return { ok: true, location: u.toString() };
    };
    if (q['response_type'] !== 'code') return back({ error: 'unsupported_response_type' });
    if (!q['code_challenge'] || q['code_challenge_method'] !== 'S256') {
      return back({ error: 'invalid_request', error_description: 'PKCE with code_challenge_method=S256 is required' });
    }
    const requested = (q['scope'] ?? '').trim().split(/\s+/).filter(Boolean);
    if (requested.length === 0) return back({ error: 'invalid_scope' });
    const refused = requested.filter((s) => !this.cfg.allowedScopes.includes(s));
    if (refused.length)
      return back({ error: 'invalid_scope', error_description: `Invalid scope for client: ${refused.join(' ')}` });
    const consent = this.cfg.consent();
    const scope = (consent ? requested.filter((s) => consent.includes(s)) : requested).join(' ');
    const authCode = token();
    this.codes.set(authCode, {
      redirectUri,
      codeChallenge: q['code_challenge'],
      scope,
      issuedMs: this.nowMs(),
      used: false,
      grantId: undefined,
    });
    return back({ code: authCode, scope });
  }

  /** `basic` is the decoded Authorization: Basic pair, if any; form may carry client_id/secret instead. */
  token(form: Record<string, string | undefined>, basic: { id: string; secret: string } | undefined): TokenResult {
    const id = basic?.id ?? form['client_id'];
    const secret = basic?.secret ?? form['client_secret'];
    if (id !== this.cfg.clientId || secret !== this.cfg.clientSecret)
      return fail('invalid_client', undefined, basic ? 401 : 400);
    if (form['grant_type'] === 'authorization_code') return this.exchange(form);
    if (form['grant_type'] === 'refresh_token') return this.refresh(form['refresh_token'] ?? '');
    return fail('unsupported_grant_type');
  }

  private exchange(form: Record<string, string | undefined>): TokenResult {
    const rec = this.codes.get(form['code'] ?? '');
    if (!rec) return fail('invalid_grant');
    if (rec.used) {
      // A replayed code revokes everything issued from it (RFC 6749 §4.1.2).
      if (rec.grantId) this.revokeGrant(rec.grantId);
      return fail('invalid_grant', 'code already used');
    }
    rec.used = true;
    if (this.nowMs() - rec.issuedMs > LOCAL_CODE_TTL_MS) return fail('invalid_grant', 'code expired');
    if (form['redirect_uri'] !== rec.redirectUri) return fail('invalid_grant', 'redirect_uri mismatch');
    const verifier = form['code_verifier'] ?? '';
    if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier) || pkceChallengeS256(verifier) !== rec.codeChallenge) {
      return fail('invalid_grant', 'code_verifier does not match code_challenge');
    }
    const grant: LocalGrant = {
      id: token(),
      scope: rec.scope,
      tenantIds: this.cfg.tenantIds(),
      refreshToken: token(),
      previous: [],
      lastUsedMs: this.nowMs(),
      revoked: false,
    };
    this.grants.set(grant.id, grant);
    rec.grantId = grant.id;
    return this.issue(grant);
  }

  private refresh(refreshToken: string): TokenResult {
    const now = this.nowMs();
    const grant = this.findGrant(refreshToken);
    if (!grant || grant.revoked || now - grant.lastUsedMs > LOCAL_REFRESH_IDLE_MS) return fail('invalid_grant');
    if (grant.refreshToken !== refreshToken) {
      const prev = grant.previous.find((p) => p.token === refreshToken);
      if (!prev || now > prev.graceUntilMs) return fail('invalid_grant');
    }
    grant.previous = grant.previous.filter((p) => now <= p.graceUntilMs);
    grant.previous.push({ token: grant.refreshToken, graceUntilMs: now + LOCAL_REFRESH_GRACE_MS });
    grant.refreshToken = token();
    grant.lastUsedMs = now;
    return this.issue(grant);
  }

  private issue(grant: LocalGrant): TokenResult {
    const access = token();
    this.accessTokens.set(access, { grantId: grant.id, expiresMs: this.nowMs() + LOCAL_ACCESS_TTL_MS });
    return {
      ok: true,
      body: {
        access_token: access,
        expires_in: LOCAL_ACCESS_TTL_MS / 1000,
        token_type: 'Bearer',
        // Like Xero: a refresh token only for the offline_access scope.
        ...(grant.scope.split(' ').includes('offline_access') ? { refresh_token: grant.refreshToken } : {}),
        scope: grant.scope,
      },
    };
  }

  /** The grant a refresh token (current or rotated) or access token belongs to. */
  findGrant(anyToken: string): LocalGrant | undefined {
    const viaAccess = this.accessTokens.get(anyToken);
    if (viaAccess) return this.grants.get(viaAccess.grantId);
    for (const g of this.grants.values()) {
      if (g.refreshToken === anyToken || g.previous.some((p) => p.token === anyToken)) return g;
    }
    return undefined;
  }

  /** The live grant behind a Bearer token, or why not. */
  checkAccess(access: string): { grant: LocalGrant } | { error: string } {
    const rec = this.accessTokens.get(access);
    if (!rec) return { error: 'AuthenticationUnsuccessful' };
    const grant = this.grants.get(rec.grantId);
    if (!grant || grant.revoked) return { error: 'AuthenticationUnsuccessful' };
    if (this.nowMs() >= rec.expiresMs)
      return { error: `TokenExpired: token expired at ${new Date(rec.expiresMs).toISOString()}` };
    return { grant };
  }

  revokeGrant(grantId: string): void {
    const g = this.grants.get(grantId);
    if (g) g.revoked = true;
  }

  /** Makes the grant's refresh tokens look unused for more than 60 days. */
  expireGrant(grantId: string): void {
    const g = this.grants.get(grantId);
    if (g) g.lastUsedMs = this.nowMs() - LOCAL_REFRESH_IDLE_MS - 1;
  }

  expireAccessTokens(): void {
    for (const rec of this.accessTokens.values()) rec.expiresMs = Math.min(rec.expiresMs, this.nowMs());
  }
}
