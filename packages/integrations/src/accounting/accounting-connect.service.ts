/**
 * Connecting the ERP to the accounting provider (OAuth2 authorization code + PKCE S256).
 * start() keeps a one-use `state` and the sealed PKCE verifier on the connection and returns the
 * provider's authorize URL; callback() checks the state, that the callback reached us exactly at
 * the registered Redirect URI (trailing slash included), exchanges the code and links the
 * organisation; disconnect() revokes the grant and forgets the tokens.
 */
import { randomBytes } from 'node:crypto';

import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import { type AccountingOAuth, createPkcePair, isAccountingError } from '@platform/providers';

import { findAccounting, findAccountingByState, updateAccounting } from '../settings/settings.repo.js';
import type { AccountingTokens } from './accounting-tokens.js';

/**
 * The least that works (docs/integrations.md "Scopes"): contacts are found and created, invoices and
 * credit notes created and read (an invoice's credit notes, prepayments and overpayments come with
 * it), payments created (the ERP's payments and refunds) and read (to see a deleted one). The
 * provider's granular scopes (required of its apps created from 2 March 2026).
 */
export const ACCOUNTING_SCOPES = [
  'offline_access',
  'accounting.contacts',
  'accounting.invoices',
  'accounting.payments',
  // The tax rates, to map the ERP's taxes (docs/integrations.md "Tax mapping"); read-only is enough.
  'accounting.settings.read',
];

/** The scopes of ACCOUNTING_SCOPES missing from a granted scope string. */
export const missingScopes = (granted: string): string[] => {
  const have = new Set(granted.split(/\s+/).filter(Boolean));
  return ACCOUNTING_SCOPES.filter((s) => !have.has(s) && !(s.endsWith('.read') && have.has(s.slice(0, -5))));
};

/** What the callback page shows. Never carries a secret, a code or a token. */
export type CallbackOutcome =
  | { ok: true; tenantName: string; connection: string }
  | { ok: false; reason: 'redirect_uri_mismatch'; registered: string; received: string }
  | { ok: false; reason: 'unknown_state' | 'provider_error' | 'exchange_failed' | 'no_organisation'; message: string };

export class AccountingConnectService {
  constructor(
    private readonly db: Db,
    private readonly oauth: AccountingOAuth,
    private readonly tokens: AccountingTokens,
  ) {}

  /** The URL to send the admin's browser to. A live connection stays usable until the callback. */
  async start(tenantId: string, companyId = 1): Promise<string> {
    const row = await findAccounting(this.db, tenantId, companyId);
    if (!row) throw new AppError('NOT_FOUND', 'No accounting connection is configured for this company.');
    const state = randomBytes(24).toString('base64url');
    const { codeVerifier, codeChallenge } = createPkcePair();
    await updateAccounting(this.db, row.id, {
      oauth_state: state,
      code_verifier_enc: this.tokens.seal(row, 'code_verifier', codeVerifier),
      ...(row.status === 'connected' ? {} : { status: 'connecting' as const }),
    });
    return this.oauth.authorizeUrl({
      clientId: row.client_id,
      redirectUri: row.redirect_uri,
      state,
      codeChallenge,
      scopes: ACCOUNTING_SCOPES,
    });
  }

  /** `receivedUrl`: this callback's URL as it reached us (scheme, host, path; no query). */
  async callback(q: {
    state?: string;
    code?: string;
    error?: string;
    errorDescription?: string;
    receivedUrl: string;
  }): Promise<CallbackOutcome> {
    const row = q.state ? await findAccountingByState(this.db, q.state) : undefined;
    if (!row?.code_verifier_enc)
      return {
        ok: false,
        reason: 'unknown_state',
        message: 'This sign-in link is unknown or was already used. Start the connection again from the ERP.',
      };
    if (q.receivedUrl !== row.redirect_uri) {
      return { ok: false, reason: 'redirect_uri_mismatch', registered: row.redirect_uri, received: q.receivedUrl };
    }
    // The state is used once, whatever happens next.
    const fallback = row.status === 'connecting' ? 'disconnected' : row.status;
    await updateAccounting(this.db, row.id, { oauth_state: null, code_verifier_enc: null });
    const codeVerifier = this.tokens.open(row, 'code_verifier', row.code_verifier_enc);
    if (q.error === 'invalid_scope' || q.error === 'access_denied') {
      const detail =
        `The accounting provider refused the requested permissions (${q.error}${q.errorDescription ? `: ${q.errorDescription}` : ''}). ` +
        `Allow ${ACCOUNTING_SCOPES.join(' ')} for the app, then disconnect and connect again.`;
      await updateAccounting(this.db, row.id, { status: 'needs_reconnect', status_detail: detail });
      return { ok: false, reason: 'provider_error', message: detail };
    }
    if (q.error || !q.code) {
      await updateAccounting(this.db, row.id, { status: fallback });
      return {
        ok: false,
        reason: 'provider_error',
        message: `The accounting provider did not authorise the connection: ${q.error ?? 'no code'}${q.errorDescription ? ` (${q.errorDescription})` : ''}.`,
      };
    }
    try {
      const t = await this.oauth.exchangeCode({
        clientId: row.client_id,
        clientSecret: this.tokens.open(row, 'client_secret', row.client_secret_enc),
        code: q.code,
        redirectUri: row.redirect_uri,
        codeVerifier,
      });
      const orgs = await this.oauth.connections(t.accessToken);
      // Keep the organisation linked before, when it is still there; else the first one.
      const org = orgs.find((o) => o.tenantId === row.provider_tenant_id) ?? orgs[0];
      if (!org) {
        await updateAccounting(this.db, row.id, { status: fallback });
        return {
          ok: false,
          reason: 'no_organisation',
          message:
            'The sign-in worked but no organisation was connected. Choose an organisation at the provider and connect again.',
        };
      }
      // A provider that does not echo the granted scopes is taken at its word; calls still check them.
      const missing = t.scope ? missingScopes(t.scope) : [];
      const detail = missing.length
        ? `The accounting provider granted no ${missing.join(', ')}: the sync cannot work without it. Disconnect, then connect again and allow every permission asked.`
        : null;
      await updateAccounting(this.db, row.id, {
        status: missing.length ? 'needs_reconnect' : 'connected',
        status_detail: detail,
        granted_scopes: t.scope,
        access_token_enc: this.tokens.seal(row, 'access_token', t.accessToken),
        refresh_token_enc: this.tokens.seal(row, 'refresh_token', t.refreshToken),
        token_expires_at: t.expiresAt,
        refresh_lease_until: null, // a refresher of the old grant holds nothing of the new one
        provider_tenant_id: org.tenantId,
        provider_tenant_name: org.tenantName,
      });
      if (detail) return { ok: false, reason: 'provider_error', message: detail };
      return { ok: true, tenantName: org.tenantName, connection: row.name };
    } catch (e) {
      if (!isAccountingError(e)) throw e;
      await updateAccounting(this.db, row.id, { status: fallback, status_detail: `Connect failed: ${e.kind}` });
      return {
        ok: false,
        reason: 'exchange_failed',
        message: `The accounting provider refused the sign-in (${e.kind}). Check the Client ID, Client Secret and Redirect URI, then connect again.`,
      };
    }
  }

  /** Revokes the grant at the provider (best effort) and forgets the tokens. */
  async disconnect(tenantId: string, companyId = 1): Promise<void> {
    const row = await findAccounting(this.db, tenantId, companyId);
    if (!row) throw new AppError('NOT_FOUND', 'No accounting connection is configured for this company.');
    if (row.refresh_token_enc) {
      await this.oauth
        .revoke({
          clientId: row.client_id,
          clientSecret: this.tokens.open(row, 'client_secret', row.client_secret_enc),
          refreshToken: this.tokens.open(row, 'refresh_token', row.refresh_token_enc),
        })
        .catch(() => undefined); // an expired grant cannot be revoked; forgetting it is what matters
    }
    await updateAccounting(this.db, row.id, {
      status: 'disconnected',
      status_detail: null,
      access_token_enc: null,
      refresh_token_enc: null,
      token_expires_at: null,
      oauth_state: null,
      code_verifier_enc: null,
    });
  }
}
