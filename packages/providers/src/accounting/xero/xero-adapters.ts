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
