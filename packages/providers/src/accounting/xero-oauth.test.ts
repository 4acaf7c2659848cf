import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AccountingError } from './accounting.port.js';
import {
  adapters,
  browserAuthorize,
  CLIENT_ID,
  CLIENT_SECRET,
  connect,
  REDIRECT_URI,
  rejection,
  SCOPES,
  startStandIn,
} from './accounting.test-helpers.js';
import type { RunningLocalAccounting } from './local/local-accounting.server.js';
import { createPkcePair } from './pkce.js';

describe('Xero OAuth adapter against the local stand-in', () => {
  let local: RunningLocalAccounting;
  let oauth: ReturnType<typeof adapters>['oauth'];
  beforeAll(async () => {
    local = await startStandIn({ tenants: [{ tenantId: 'tenant-a', tenantName: 'Blinds & Co' }] });
    oauth = adapters(local, { now: () => local.now() }).oauth;
  });
  afterAll(() => local.close());

  const creds = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
  const authorizeFor = (redirectUri: string, over: Record<string, string> = {}) => {
    const u = new URL(
      oauth.authorizeUrl({
        clientId: CLIENT_ID,
        redirectUri,
        state: 's1',
        codeChallenge: createPkcePair().codeChallenge,
        scopes: SCOPES,
      }),
    );
    for (const [k, v] of Object.entries(over)) u.searchParams.set(k, v);
    return browserAuthorize(u.toString());
  };

  it('builds an authorize URL with PKCE S256, scopes and state', () => {
    const u = new URL(
      oauth.authorizeUrl({
        clientId: CLIENT_ID,
        redirectUri: REDIRECT_URI,
        state: 'xyz',
        codeChallenge: 'abc',
        scopes: SCOPES,
      }),
    );
    expect(u.pathname).toBe('/identity/connect/authorize');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      scope: SCOPES.join(' '),
      state: 'xyz',
      code_challenge: 'abc',
      code_challenge_method: 'S256',
    });
  });

  it('connects with code + PKCE and lists the organisation', async () => {
    const t0 = local.now().getTime();
    const tokens = await connect(oauth);
    expect(tokens.scope).toBe(SCOPES.join(' '));
    expect(tokens.expiresAt.getTime() - t0).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(tokens.expiresAt.getTime() - t0).toBeLessThanOrEqual(30 * 60_000 + 1000);
    expect(await oauth.connections(tokens.accessToken)).toEqual([{ tenantId: 'tenant-a', tenantName: 'Blinds & Co' }]);
    const tokenCall = local.requests.find((r) => r.path === '/connect/token');
    expect(JSON.stringify(tokenCall?.body)).not.toContain(CLIENT_SECRET);
  });

  it('refuses to complete a connection without offline_access (no refresh token)', async () => {
    const { codeVerifier, codeChallenge } = createPkcePair();
    const r = await browserAuthorize(
      oauth.authorizeUrl({
        clientId: CLIENT_ID,
        redirectUri: REDIRECT_URI,
        state: 's',
        codeChallenge,
        scopes: ['accounting.invoices'],
      }),
    );
    const code = new URL(r.location ?? '').searchParams.get('code') ?? '';
    const e = await rejection<AccountingError>(
      oauth.exchangeCode({ ...creds, code, redirectUri: REDIRECT_URI, codeVerifier }),
    );
    expect(e.kind).toBe('format');
    expect(e.message).toContain('offline_access');
  });

  it('refuses a redirect URI that differs by a trailing slash, naming both values, without redirecting', async () => {
    const r = await authorizeFor(`${REDIRECT_URI}/`);
    expect(r.status).toBe(400);
    expect(r.location).toBeNull();
    expect(r.body).toContain(`<code>${REDIRECT_URI}/</code>`);
    expect(r.body).toContain(`registered: <code>${REDIRECT_URI}</code>`);
  });

  it('refuses a redirect URI that differs in case or adds a query', async () => {
    expect((await authorizeFor(REDIRECT_URI.replace('callback', 'Callback'))).status).toBe(400);
    expect((await authorizeFor(`${REDIRECT_URI}?x=1`)).status).toBe(400);
  });

  it('redirects with an error when PKCE is missing or plain', async () => {
    for (const over of [{ code_challenge_method: 'plain' }, { code_challenge: '' }] as Record<string, string>[]) {
      const r = await authorizeFor(REDIRECT_URI, over);
      expect(r.status).toBe(302);
      const back = new URL(r.location ?? '');
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    }
  });

  it('rejects a wrong code verifier with invalid_grant', async () => {
    const { codeChallenge } = createPkcePair();
    const r = await browserAuthorize(
      oauth.authorizeUrl({ clientId: CLIENT_ID, redirectUri: REDIRECT_URI, state: 's', codeChallenge, scopes: SCOPES }),
    );
    const code = new URL(r.location ?? '').searchParams.get('code') ?? '';
    const e = await rejection<AccountingError>(
      oauth.exchangeCode({ ...creds, code, redirectUri: REDIRECT_URI, codeVerifier: createPkcePair().codeVerifier }),
    );
    expect(e).toBeInstanceOf(AccountingError);
    expect(e.kind).toBe('invalid_grant');
    expect(e.needsReconnect).toBe(true);
    expect(e.retryable).toBe(false);
  });

  it('refuses a reused code and revokes the tokens it issued', async () => {
    const { codeVerifier, codeChallenge } = createPkcePair();
    const r = await browserAuthorize(
      oauth.authorizeUrl({ clientId: CLIENT_ID, redirectUri: REDIRECT_URI, state: 's', codeChallenge, scopes: SCOPES }),
    );
    const code = new URL(r.location ?? '').searchParams.get('code') ?? '';
    const first = await oauth.exchangeCode({ ...creds, code, redirectUri: REDIRECT_URI, codeVerifier });
    expect(
      (
        await rejection<AccountingError>(
          oauth.exchangeCode({ ...creds, code, redirectUri: REDIRECT_URI, codeVerifier }),
        )
      ).kind,
    ).toBe('invalid_grant');
    expect((await rejection<AccountingError>(oauth.refresh({ ...creds, refreshToken: first.refreshToken }))).kind).toBe(
      'invalid_grant',
    );
  });

  it('reports a wrong client secret as invalid_client', async () => {
    const tokens = await connect(oauth);
    const e = await rejection<AccountingError>(
      oauth.refresh({ clientId: CLIENT_ID, clientSecret: 'wrong', refreshToken: tokens.refreshToken }),
    );
    expect(e.kind).toBe('invalid_client');
    expect(e.message).not.toContain(tokens.refreshToken);
  });

  it('rotates refresh tokens and keeps the old one valid for a 30-minute grace', async () => {
    const first = await connect(oauth);
    const second = await oauth.refresh({ ...creds, refreshToken: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    // The answer to the first refresh was "lost": the old token still works within the grace.
    local.advanceTime(29 * 60_000);
    const again = await oauth.refresh({ ...creds, refreshToken: first.refreshToken });
    expect(again.refreshToken).not.toBe(second.refreshToken);
    local.advanceTime(2 * 60_000);
    expect((await rejection<AccountingError>(oauth.refresh({ ...creds, refreshToken: first.refreshToken }))).kind).toBe(
      'invalid_grant',
    );
    expect((await oauth.refresh({ ...creds, refreshToken: again.refreshToken })).refreshToken).toBeTruthy();
  });

  it('expires access tokens after 30 minutes: API calls get unauthorized, refresh fixes it', async () => {
    const tokens = await connect(oauth);
    local.advanceTime(30 * 60_000 + 1);
    const e = await rejection<AccountingError>(oauth.connections(tokens.accessToken));
    expect(e.kind).toBe('unauthorized');
    expect(e.message).not.toContain(tokens.accessToken);
    const fresh = await oauth.refresh({ ...creds, refreshToken: tokens.refreshToken });
    expect(await oauth.connections(fresh.accessToken)).toHaveLength(1);
  });

  it('answers invalid_grant for an expired, revoked or unknown grant', async () => {
    const a = await connect(oauth);
    local.expireGrant(a.refreshToken);
    expect((await rejection<AccountingError>(oauth.refresh({ ...creds, refreshToken: a.refreshToken }))).kind).toBe(
      'invalid_grant',
    );
    const b = await connect(oauth);
    local.revokeGrant(b.accessToken);
    expect((await rejection<AccountingError>(oauth.refresh({ ...creds, refreshToken: b.refreshToken }))).kind).toBe(
      'invalid_grant',
    );
    expect((await rejection<AccountingError>(oauth.connections(b.accessToken))).kind).toBe('unauthorized');
    expect((await rejection<AccountingError>(oauth.refresh({ ...creds, refreshToken: 'nope' }))).needsReconnect).toBe(
      true,
    );
  });

  it('revokes a connection on disconnect', async () => {
    const t = await connect(oauth);
    await oauth.revoke({ ...creds, refreshToken: t.refreshToken });
    expect((await rejection<AccountingError>(oauth.refresh({ ...creds, refreshToken: t.refreshToken }))).kind).toBe(
      'invalid_grant',
    );
  });

  it('maps an unreachable identity server to a retryable network error', async () => {
    const down = adapters({ url: 'http://127.0.0.1:9' } as RunningLocalAccounting).oauth;
    const e = await rejection<AccountingError>(down.refresh({ ...creds, refreshToken: 'x' }));
    expect(e.kind).toBe('network');
    expect(e.retryable).toBe(true);
  });
});
