/**
 * The accounts of the LOCAL SMS stand-in: as at JustCall, each company has its own API key and secret,
 * webhook secret, webhook URL and lines on the one host.
 */

/** One account at the provider. */
export interface LocalSmsAccount {
  apiKey: string;
  apiSecret: string;
  /** Signing key of the webhooks (the receiver's "Webhook Secret"). */
  webhookSecret: string;
  webhookUrl?: string;
  /** Our lines; when given, sends from any other number are refused. Digits without `+`. */
  lines?: { number: string; name: string }[];
}

/** A copy of the account's own fields, refused without its credentials. */
export function checkedAccount(a: LocalSmsAccount): LocalSmsAccount {
  if (!a.apiKey || !a.apiSecret || !a.webhookSecret)
    throw new Error('local SMS: apiKey, apiSecret and webhookSecret are required');
  return {
    apiKey: a.apiKey,
    apiSecret: a.apiSecret,
    webhookSecret: a.webhookSecret,
    ...(a.webhookUrl ? { webhookUrl: a.webhookUrl } : {}),
    ...(a.lines ? { lines: [...a.lines] } : {}),
  };
}

/** Adds the account, or for a known key replaces its webhook URL and lines (its secrets must match). */
export function putAccount(accounts: LocalSmsAccount[], a: LocalSmsAccount): void {
  const next = checkedAccount(a);
  const known = accounts.find((x) => x.apiKey === a.apiKey);
  if (!known) return void accounts.push(next);
  if (known.apiSecret !== a.apiSecret || known.webhookSecret !== a.webhookSecret)
    throw new Error(`local SMS: account ${a.apiKey} exists with other secrets`);
  delete known.webhookUrl;
  delete known.lines;
  Object.assign(known, next);
}
