/**
 * Xero OAuth 2.0 (authorization code + PKCE S256, refresh with rotation) and `/connections`.
 *
 * - authorize: `{loginUrl}/identity/connect/authorize?response_type=code&…`
 * - token:     `POST {identityUrl}/connect/token`, form body, `Authorization: Basic b64(id:secret)`
 * - revoke:    `POST {identityUrl}/connect/revocation`, form `token=…`, same Basic auth
 * - tenants:   `GET {apiUrl}/connections`, Bearer
 *
 * Base URLs are injectable so the same code talks to the local stand-in in tests.
 */
import { type Clock, systemClock } from '@platform/kernel';

import {
  type AccountingConnection,
  AccountingError,
  type AccountingOAuth,
  type AccountingTokenSet,
  type AuthorizeUrlInput,
  type ExchangeCodeInput,
  type RefreshInput,
} from '../accounting.port.js';
import {
  apiError,
  DEFAULT_XERO_TIMEOUT_MS,
  oauthError,
  trimSlash,
  XERO_API_URL,
  XERO_IDENTITY_URL,
  XERO_LOGIN_URL,
  xeroRequest,
} from './xero-http.js';

export interface XeroOAuthOptions {
  /** Default `https://login.xero.com`. */
  loginUrl?: string;
  /** Default `https://identity.xero.com`. */
  identityUrl?: string;
  /** Default `https://api.xero.com` (for `/connections`). */
  apiUrl?: string;
  timeoutMs?: number;
  clock?: Clock;
}

const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;

export function createXeroOAuth(opts: XeroOAuthOptions = {}): AccountingOAuth {
  const loginUrl = trimSlash(opts.loginUrl ?? XERO_LOGIN_URL);
  const identityUrl = trimSlash(opts.identityUrl ?? XERO_IDENTITY_URL);
  const apiUrl = trimSlash(opts.apiUrl ?? XERO_API_URL);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_XERO_TIMEOUT_MS;
  const clock = opts.clock ?? systemClock;

  async function tokenRequest(
    clientId: string,
    clientSecret: string,
    form: Record<string, string>,
    label: string,
  ): Promise<AccountingTokenSet> {
    const res = await xeroRequest(
      `${identityUrl}/connect/token`,
      {
        method: 'POST',
        headers: {
          authorization: basic(clientId, clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams(form).toString(),
      },
      timeoutMs,
      label,
    );
    if (res.status !== 200) throw oauthError(res, label);
    const b = (res.json ?? {}) as Record<string, unknown>;
    const { access_token: at, refresh_token: rt, expires_in: exp, scope } = b;
    if (typeof at !== 'string' || typeof exp !== 'number')
      throw new AccountingError('format', `${label}: token response without access_token or expires_in`, {
        status: 200,
      });
    if (typeof rt !== 'string')
      throw new AccountingError('format', `${label}: no refresh_token; request the offline_access scope`, {
        status: 200,
      });
    return {
      accessToken: at,
      refreshToken: rt,
      expiresAt: new Date(clock.now().getTime() + exp * 1000),
      scope: typeof scope === 'string' ? scope : '',
    };
  }

  return {
    authorizeUrl(input: AuthorizeUrlInput): string {
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: input.clientId,
        redirect_uri: input.redirectUri,
        scope: input.scopes.join(' '),
        state: input.state,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
      });
      return `${loginUrl}/identity/connect/authorize?${q.toString()}`;
    },

    exchangeCode(input: ExchangeCodeInput): Promise<AccountingTokenSet> {
      return tokenRequest(
        input.clientId,
        input.clientSecret,
        {
          grant_type: 'authorization_code',
          code: input.code,
          redirect_uri: input.redirectUri,
          code_verifier: input.codeVerifier,
        },
        'Xero token (authorization_code)',
      );
    },

    refresh(input: RefreshInput): Promise<AccountingTokenSet> {
      return tokenRequest(
        input.clientId,
        input.clientSecret,
        { grant_type: 'refresh_token', refresh_token: input.refreshToken },
        'Xero token (refresh_token)',
      );
    },

    async connections(accessToken: string): Promise<AccountingConnection[]> {
      const label = 'Xero connections';
      const res = await xeroRequest(
        `${apiUrl}/connections`,
        { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
        timeoutMs,
        label,
      );
      if (res.status !== 200) throw apiError(res, label);
      if (!Array.isArray(res.json)) throw new AccountingError('format', `${label}: expected an array`, { status: 200 });
      return res.json
        .filter(
          (c): c is Record<string, unknown> =>
            !!c && typeof c === 'object' && typeof (c as Record<string, unknown>)['tenantId'] === 'string',
        )
        .filter((c) => c['tenantType'] === undefined || c['tenantType'] === 'ORGANISATION')
        .map((c) => ({
          tenantId: c['tenantId'] as string,
          tenantName: typeof c['tenantName'] === 'string' ? c['tenantName'] : '',
        }));
    },

    async revoke(input: RefreshInput): Promise<void> {
      const label = 'Xero revocation';
      const res = await xeroRequest(
        `${identityUrl}/connect/revocation`,
        {
          method: 'POST',
          headers: {
            authorization: basic(input.clientId, input.clientSecret),
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ token: input.refreshToken }).toString(),
        },
        timeoutMs,
        label,
      );
      if (res.status !== 200) throw oauthError(res, label);
    },
  };
}
