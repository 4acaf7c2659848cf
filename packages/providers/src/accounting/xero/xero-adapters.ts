/** The Xero-protocol adapters as one `AccountingAdapters` (the local stand-in serves all three URLs). */
import type { AccountingAdapters } from '../accounting.port.js';
import { createXeroAccountingClient } from './xero-accounting.client.js';
import { createXeroOAuth, type XeroOAuthOptions } from './xero-oauth.js';
import { xeroWebhookVerifier } from './xero-webhook.js';

export function xeroAccountingAdapters(opts: XeroOAuthOptions = {}): AccountingAdapters {
  return {
    oauth: createXeroOAuth(opts),
    api: createXeroAccountingClient({
      ...(opts.apiUrl ? { apiUrl: opts.apiUrl } : {}),
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    }),
    webhooks: xeroWebhookVerifier,
  };
}

/** The adapters at the URLs of the shared settings `ACCT_LOGIN_URL`, `ACCT_IDENTITY_URL`, `ACCT_API_URL`. */
export const xeroAccountingAdaptersOf = (c: {
  ACCT_LOGIN_URL: string;
  ACCT_IDENTITY_URL: string;
  ACCT_API_URL: string;
}): AccountingAdapters =>
  xeroAccountingAdapters({ loginUrl: c.ACCT_LOGIN_URL, identityUrl: c.ACCT_IDENTITY_URL, apiUrl: c.ACCT_API_URL });
