/** Shared by the accounting tests: start the stand-in, run the browser leg of the OAuth flow. */
import type { AccountingOAuth, AccountingTokenSet } from './accounting.port.js';
import {
  type LocalAccountingOptions,
  type RunningLocalAccounting,
  startLocalAccounting,
} from './local/local-accounting.server.js';
import { createPkcePair } from './pkce.js';
import { createXeroAccountingClient } from './xero/xero-accounting.client.js';
import { createXeroOAuth } from './xero/xero-oauth.js';

export const CLIENT_ID = 'local-client-id';
export const CLIENT_SECRET = 'local-client-secret-0123456789';
export const WEBHOOK_KEY = 'local-webhook-key-abcdefghijklmnopqrstuvwxyz';
export const REDIRECT_URI = 'https://erp.example.com/acct/callback';
export const SCOPES = [
  'offline_access',
  'accounting.invoices',
  'accounting.payments',
  'accounting.contacts',
  'accounting.settings.read',
];

export async function startStandIn(over: Partial<LocalAccountingOptions> = {}): Promise<RunningLocalAccounting> {
  return startLocalAccounting({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [REDIRECT_URI],
    webhookKey: WEBHOOK_KEY,
    ...over,
  });
}

export function adapters(local: RunningLocalAccounting, clock?: { now(): Date }) {
  return {
    oauth: createXeroOAuth({
      loginUrl: local.url,
      identityUrl: local.url,
      apiUrl: local.url,
      ...(clock ? { clock } : {}),
    }),
    api: createXeroAccountingClient({ apiUrl: local.url }),
  };
}

/** What the user's browser does: open the authorize URL, read the redirect (not followed). */
export async function browserAuthorize(
  url: string,
): Promise<{ status: number; location: string | null; body: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** Full connect: authorize (auto-approved), callback params checked, code exchanged with PKCE. */
/** Authorize (auto-approved), then the code exchange, as the app `client` (default: the stand-in's first app). */
export async function connect(
  oauth: AccountingOAuth,
  redirectUri = REDIRECT_URI,
  client = { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
): Promise<AccountingTokenSet> {
  const { codeVerifier, codeChallenge } = createPkcePair();
  const state = `state-${Math.random()}`;
  const { clientId, clientSecret } = client;
  const r = await browserAuthorize(oauth.authorizeUrl({ clientId, redirectUri, state, codeChallenge, scopes: SCOPES }));
  if (r.status !== 302 || !r.location) throw new Error(`authorize failed: ${r.status} ${r.body}`);
  const back = new URL(r.location);
  if (back.searchParams.get('state') !== state) throw new Error('state not echoed');
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code: ${r.location}`);
  return oauth.exchangeCode({ clientId, clientSecret, code, redirectUri, codeVerifier });
}

/** Resolves with the thrown error (fails the test when nothing is thrown). */
export async function rejection<T = Error>(p: Promise<unknown>): Promise<T> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as T,
  );
}
