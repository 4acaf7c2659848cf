/**
 * Test support: the REST harness listening over HTTP with one OAuth app registered, and openid-client
 * configured for that app by discovery: the relying party of the OAuth tests.
 */
import * as client from 'openid-client';
import { afterAll, beforeAll } from 'vitest';

import { type RestHarness, startRestHarness } from './restapi-harness.js';

/** A loopback redirect URI (RFC 8252): registered by every test app. */
export const REDIRECT = 'http://127.0.0.1:53682/callback';

export interface RelyingParty {
  h: RestHarness;
  /** The ERP host's base URL (the issuer). */
  base: string;
  config: client.Configuration;
  clientId: string;
  clientSecret: string;
}

/**
 * Starts the harness and registers `app` before the file's tests, closes it after; the fields are
 * set once `beforeAll` has run. `basicAuth`: the client authenticates with HTTP Basic, else with the
 * library's default (the secret in the form body).
 */
export function useRelyingParty(
  app: { name: string; redirectUris: string; scope: string },
  basicAuth: boolean,
): RelyingParty {
  const rp = {} as RelyingParty;
  beforeAll(async () => {
    rp.h = await startRestHarness();
    rp.base = await rp.h.listen();
    const created = await rp.h.deps.apps.create(app);
    rp.clientId = created.app.clientId;
    rp.clientSecret = created.clientSecret;
    const auth = basicAuth ? client.ClientSecretBasic(rp.clientSecret) : undefined;
    rp.config = await client.discovery(new URL(rp.base), rp.clientId, rp.clientSecret, auth, {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
  });
  afterAll(async () => rp.h?.close());
  return rp;
}
