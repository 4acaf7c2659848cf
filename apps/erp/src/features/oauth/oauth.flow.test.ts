/**
 * A real OAuth2 client library (openid-client 6, on oauth4webapi) completes the authorization code
 * flow with PKCE against the ERP host over HTTP, refreshes, and calls the REST API with the token.
 */
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';

import { submitConsent } from '../../../test/support/consent-driver.js';
import { REDIRECT, useRelyingParty } from '../../../test/support/oauth-client.js';
import { ADMIN_PASSWORD } from '../../../test/support/restapi-harness.js';

const rp = useRelyingParty(
  {
    name: 'Field CRM',
    redirectUris: `${REDIRECT}\nhttps://crm.example.com/oauth/cb`,
    scope: 'read:res.partner write:res.partner read:crm.lead',
  },
  true,
);

async function authorize(scope = 'read:res.partner write:res.partner') {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp.config, {
    redirect_uri: REDIRECT,
    scope,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const consent = await submitConsent(url, { login: 'admin', password: ADMIN_PASSWORD });
  expect(consent.status).toBe(303);
  return { callback: new URL(consent.location!), verifier, state };
}

describe('OAuth2 authorization code flow with openid-client', () => {
  it('discovers the server metadata (RFC 8414): code + S256 only, no implicit or password grant', () => {
    const m = rp.config.serverMetadata();
    expect(m.issuer).toBe(rp.base);
    expect(m.response_types_supported).toEqual(['code']);
    expect(m.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    expect(m.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('authorizes with PKCE, exchanges the code, calls the REST API, refreshes and calls again', async () => {
    const { callback, verifier, state } = await authorize();
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(rp.base);

    const tokens = await client.authorizationCodeGrant(rp.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope).toBe('read:res.partner write:res.partner');
    expect(tokens.access_token).toMatch(/^erpat_/);
    expect(tokens.refresh_token).toMatch(/^erprt_/);

    const created = await client.fetchProtectedResource(
      rp.config,
      tokens.access_token,
      new URL(`${rp.base}/restapi/1.0/object/res.partner`),
      'POST',
      JSON.stringify({ name: 'OAuth Partner' }),
      new Headers({ 'content-type': 'application/json' }),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };

    const refreshed = await client.refreshTokenGrant(rp.config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const read = await client.fetchProtectedResource(
      rp.config,
      refreshed.access_token,
      new URL(`${rp.base}/restapi/1.0/object/res.partner/${id}?fields=name`),
      'GET',
    );
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ id, name: 'OAuth Partner' });
  });

  it('a token only reaches what its scope says: crm.lead was registered but not requested → 403', async () => {
    const { callback, verifier, state } = await authorize('read:res.partner');
    const tokens = await client.authorizationCodeGrant(rp.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const res = await client.fetchProtectedResource(
      rp.config,
      tokens.access_token,
      new URL(`${rp.base}/restapi/1.0/object/crm.lead`),
      'GET',
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('API_FORBIDDEN');
  });

  it('client_secret_post works too; the token response is never cached', async () => {
    const post = await client.discovery(
      new URL(rp.base),
      rp.clientId,
      rp.clientSecret,
      client.ClientSecretPost(rp.clientSecret),
      {
        algorithm: 'oauth2',
        execute: [client.allowInsecureRequests],
      },
    );
    const { callback, verifier, state } = await authorize();
    const tokens = await client.authorizationCodeGrant(post, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.access_token).toBeTruthy();
    const raw = await fetch(`${rp.base}/restapi/1.0/common/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: rp.clientId,
        client_secret: rp.clientSecret,
      }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('cache-control')).toBe('no-store');
  });

  it('revocation (RFC 7009) ends the grant: access and refresh tokens stop working', async () => {
    const { callback, verifier, state } = await authorize();
    const tokens = await client.authorizationCodeGrant(rp.config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    await client.tokenRevocation(rp.config, tokens.refresh_token!);
    // openid-client surfaces the 401's RFC 6750 challenge as an error.
    await expect(
      client.fetchProtectedResource(
        rp.config,
        tokens.access_token,
        new URL(`${rp.base}/restapi/1.0/object/res.partner`),
        'GET',
      ),
    ).rejects.toMatchObject({
      status: 401,
      cause: [
        expect.objectContaining({ scheme: 'bearer', parameters: expect.objectContaining({ error: 'invalid_token' }) }),
        expect.anything(),
      ],
    });
    await expect(client.refreshTokenGrant(rp.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});
