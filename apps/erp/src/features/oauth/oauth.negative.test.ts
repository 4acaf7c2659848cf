/**
 * RFC 9700 / ASVS 10.4 negative cases (reference §8 item 11), driven with openid-client where a
 * client would make the mistake and with raw HTTP where no library would: every one is refused.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';

import { openConsent, submitConsent } from '../../../test/support/consent-driver.js';
import { REDIRECT, useRelyingParty } from '../../../test/support/oauth-client.js';
import { ADMIN_PASSWORD } from '../../../test/support/restapi-harness.js';

const rp = useRelyingParty({ name: 'Negative', redirectUris: REDIRECT, scope: 'read:res.partner' }, false);

async function pkce() {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier), state: client.randomState() };
}
const authUrl = (p: Record<string, string>) =>
  client.buildAuthorizationUrl(rp.config, { redirect_uri: REDIRECT, scope: 'read:res.partner', ...p });

async function codeFlow() {
  const { verifier, challenge, state } = await pkce();
  const consent = await submitConsent(authUrl({ state, code_challenge: challenge, code_challenge_method: 'S256' }), {
    login: 'admin',
    password: ADMIN_PASSWORD,
  });
  return { callback: new URL(consent.location!), verifier, state };
}
const partners = (token: string) =>
  fetch(`${rp.base}/restapi/1.0/object/res.partner`, { headers: { authorization: `Bearer ${token}` } });
const familyRevocations = async () =>
  (await rp.h.deps.audit.list()).filter((e) => e.event === 'token_family_revoked').map((e) => e.detail.reason);

describe('redirect URIs match exactly', () => {
  it.each([
    ['a trailing slash', `${REDIRECT}/`],
    ['one character off', 'http://127.0.0.1:53682/callbacK'],
    ['another port', 'http://127.0.0.1:53683/callback'],
    ['an extra query', `${REDIRECT}?x=1`],
  ])('%s: error page, never a redirect', async (_what, uri) => {
    const { challenge } = await pkce();
    const page = await openConsent(
      authUrl({ redirect_uri: uri, code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.html).toContain('redirect_uri');
  });

  it('the token request must repeat the same redirect_uri', async () => {
    const { callback, verifier, state } = await codeFlow();
    const res = await fetch(`${rp.base}/restapi/1.0/common/oauth2/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: `${REDIRECT}/`,
        code_verifier: verifier,
        client_id: rp.clientId,
        client_secret: rp.clientSecret,
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
    expect(state).toBeTruthy();
  });
});

describe('PKCE is required, S256 only', () => {
  const errorOf = (location: string | null) => Object.fromEntries(new URL(location!).searchParams);

  it('no code_challenge: redirected back with invalid_request', async () => {
    const page = await openConsent(authUrl({ state: 's1' }));
    expect(page.status).toBe(302);
    expect(errorOf(page.location)).toMatchObject({ error: 'invalid_request', state: 's1', iss: rp.base });
  });

  it('code_challenge_method=plain: invalid_request', async () => {
    const { verifier } = await pkce();
    const page = await openConsent(authUrl({ state: 's2', code_challenge: verifier, code_challenge_method: 'plain' }));
    expect(errorOf(page.location)).toMatchObject({ error: 'invalid_request', state: 's2' });
    expect(errorOf(page.location).error_description).toContain('S256');
  });

  it('a code exchanged without code_verifier is refused (invalid_grant)', async () => {
    const { callback, state } = await codeFlow();
    await expect(client.authorizationCodeGrant(rp.config, callback, { expectedState: state })).rejects.toMatchObject({
      error: 'invalid_grant',
      status: 400,
    });
  });

  it('a wrong code_verifier is refused', async () => {
    const { callback, state } = await codeFlow();
    await expect(
      client.authorizationCodeGrant(rp.config, callback, {
        expectedState: state,
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('codes are one-use and short-lived', () => {
  it('a reused code is refused and revokes the tokens issued from it', async () => {
    const { callback, verifier, state } = await codeFlow();
    const tokens = await client.authorizationCodeGrant(rp.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect((await partners(tokens.access_token)).status).toBe(200);
    await expect(
      client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await partners(tokens.access_token)).status).toBe(401);
    await expect(client.refreshTokenGrant(rp.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await familyRevocations()).toContain('authorization_code_reuse');
  });

  it('an expired code is refused; the lifetime is capped at 10 minutes', async () => {
    const { callback, verifier, state } = await codeFlow();
    const r = await rp.h.t.db.query<{ s: number }>(
      `SELECT max(extract(epoch FROM expires_at - created_at))::int AS s FROM restapi_oauth_codes`,
    );
    expect(r.rows[0]!.s).toBeLessThanOrEqual(600);
    await rp.h.t.db.query(`UPDATE restapi_oauth_codes SET expires_at = now() - interval '1 second'`);
    await expect(
      client.authorizationCodeGrant(rp.config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('refresh tokens rotate; reuse revokes the family', () => {
  it('presenting a rotated refresh token again revokes the newest access and refresh tokens', async () => {
    const { callback, verifier, state } = await codeFlow();
    const first = await client.authorizationCodeGrant(rp.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const second = await client.refreshTokenGrant(rp.config, first.refresh_token!);
    expect((await partners(second.access_token)).status).toBe(200);
    await expect(client.refreshTokenGrant(rp.config, first.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await partners(second.access_token)).status).toBe(401);
    await expect(client.refreshTokenGrant(rp.config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await familyRevocations()).toContain('refresh_token_reuse');
  });

  it('a refresh cannot widen the scope', async () => {
    const { callback, verifier, state } = await codeFlow();
    const t = await client.authorizationCodeGrant(rp.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    await expect(
      client.refreshTokenGrant(rp.config, t.refresh_token!, { scope: 'read:res.partner write:res.partner' }),
    ).rejects.toMatchObject({ error: 'invalid_scope' });
  });
});

describe('no implicit or password grant', () => {
  it('response_type=token (implicit) is refused with unsupported_response_type', async () => {
    const { challenge } = await pkce();
    const page = await openConsent(
      authUrl({ response_type: 'token', state: 's3', code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(page.status).toBe(302);
    expect(new URL(page.location!).searchParams.get('error')).toBe('unsupported_response_type');
  });

  it.each(['password', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'])(
    'grant_type=%s → unsupported_grant_type',
    async (grant) => {
      await expect(
        client.genericGrantRequest(rp.config, grant, {
          username: 'admin',
          password: ADMIN_PASSWORD,
          scope: 'read:res.partner',
        }),
      ).rejects.toMatchObject({ error: 'unsupported_grant_type', status: 400 });
    },
  );
});

describe('client authentication and the consent form', () => {
  it('a wrong client secret is 401 invalid_client with WWW-Authenticate, and audited', async () => {
    const res = await fetch(`${rp.base}/restapi/1.0/common/oauth2/access_token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${rp.clientId}:wrong`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Basic');
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    expect(
      (await rp.h.deps.audit.list()).some((e) => e.event === 'auth_failed' && e.detail.where === 'token_endpoint'),
    ).toBe(true);
  });

  it('a form posted without the CSRF cookie is refused (403), as is a wrong token', async () => {
    const { challenge } = await pkce();
    const url = authUrl({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect((await submitConsent(url, { login: 'admin', password: ADMIN_PASSWORD }, { dropCookie: true })).status).toBe(
      403,
    );
    expect(
      (await submitConsent(url, { login: 'admin', password: ADMIN_PASSWORD }, { csrf: 'x'.repeat(43) })).status,
    ).toBe(403);
  });

  it('a wrong password shows the form again (401) and is audited; deny redirects with access_denied', async () => {
    const { challenge } = await pkce();
    const url = authUrl({ state: 's4', code_challenge: challenge, code_challenge_method: 'S256' });
    const bad = await submitConsent(url, { login: 'admin', password: 'nope' });
    expect(bad.status).toBe(401);
    expect(bad.html).toContain('Wrong login or password');
    expect((await rp.h.deps.audit.list()).some((e) => e.event === 'auth_failed' && e.detail.where === 'consent')).toBe(
      true,
    );
    const denied = await submitConsent(url, { login: 'admin', password: ADMIN_PASSWORD, decision: 'deny' });
    expect(new URL(denied.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('the consent page cannot be framed or cached', async () => {
    const res = await fetch(authUrl({ code_challenge: (await pkce()).challenge, code_challenge_method: 'S256' }));
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
