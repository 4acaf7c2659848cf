/**
 * Xero's side of the HTTP plumbing (the call itself is `providerFetch`): the translation of
 * Xero's answers into `AccountingError`. Messages never contain tokens,
 * client secrets or the Authorization header; the fetch error is not kept as `cause`.
 */
import { providerFetch, retryAfterSeconds as sharedRetryAfter } from '../../http/provider-http.js';
import { AccountingError } from '../accounting.port.js';

export const XERO_LOGIN_URL = 'https://login.xero.com';
export const XERO_IDENTITY_URL = 'https://identity.xero.com';
export const XERO_API_URL = 'https://api.xero.com';
export const DEFAULT_XERO_TIMEOUT_MS = 15_000;
/** Used when a 429 carries no usable `Retry-After`. */
export const DEFAULT_XERO_RETRY_AFTER_SECONDS = 60;

export interface XeroResponse {
  status: number;
  headers: Headers;
  json: unknown;
}

export const trimSlash = (url: string): string => url.replace(/\/+$/, '');

export async function xeroRequest(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  label: string,
): Promise<XeroResponse> {
  const res = await providerFetch(url, init, {
    label,
    timeoutMs,
    causeInMessage: true,
    error: (kind, message, status) => new AccountingError(kind, message, status === undefined ? {} : { status }),
  });
  return { status: res.status, headers: res.headers, json: res.json };
}

/** `Retry-After` as seconds (delta or HTTP date), or the default. */
export function retryAfterSeconds(headers: Headers, now: Date = new Date()): number {
  return sharedRetryAfter(headers, DEFAULT_XERO_RETRY_AFTER_SECONDS, { acceptDate: true, now });
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Validation messages of a Xero `ValidationException` body. */
function validationMessages(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  const elements = Array.isArray(body['Elements']) ? body['Elements'] : [];
  for (const el of elements) {
    const errs =
      el && typeof el === 'object' && Array.isArray((el as Record<string, unknown>)['ValidationErrors'])
        ? ((el as Record<string, unknown>)['ValidationErrors'] as unknown[])
        : [];
    for (const ve of errs) {
      const m = ve && typeof ve === 'object' ? str((ve as Record<string, unknown>)['Message']) : undefined;
      if (m) out.push(m);
    }
  }
  return out;
}

/** Maps a non-2xx accounting API answer to an `AccountingError`. */
export function apiError(res: XeroResponse, label: string): AccountingError {
  const body = res.json && typeof res.json === 'object' ? (res.json as Record<string, unknown>) : {};
  const summary = str(body['Message']) ?? str(body['Detail']) ?? str(body['Title']) ?? '';
  const msg = `${label}: HTTP ${res.status}${summary ? `, ${summary}` : ''}`;
  switch (res.status) {
    case 400: {
      const details = validationMessages(body);
      return new AccountingError('validation', details.length ? `${msg}: ${details.join('; ')}` : msg, {
        status: 400,
        details,
      });
    }
    case 401:
      return new AccountingError('unauthorized', msg, { status: 401 });
    case 403:
      return new AccountingError('forbidden', msg, { status: 403 });
    case 404:
      return new AccountingError('not_found', msg, { status: 404 });
    case 429: {
      const after = retryAfterSeconds(res.headers);
      const problem = res.headers.get('x-rate-limit-problem');
      return new AccountingError(
        'rate_limited',
        `${label}: HTTP 429 (${problem ?? 'rate limit'}), retry after ${after} s`,
        {
          status: 429,
          retryAfterSeconds: after,
        },
      );
    }
    default:
      return new AccountingError('http', msg, { status: res.status });
  }
}

/** Maps a non-2xx token/revocation endpoint answer (`{ error, error_description? }`). */
export function oauthError(res: XeroResponse, label: string): AccountingError {
  if (res.status === 429) return apiError(res, label);
  const body = res.json && typeof res.json === 'object' ? (res.json as Record<string, unknown>) : {};
  const error = str(body['error']);
  const msg = `${label}: HTTP ${res.status}${error ? `, ${error}` : ''}${str(body['error_description']) ? ` (${String(body['error_description'])})` : ''}`;
  if (error === 'invalid_grant') return new AccountingError('invalid_grant', msg, { status: res.status });
  if (error === 'invalid_client' || error === 'unauthorized_client')
    return new AccountingError('invalid_client', msg, { status: res.status });
  if (error) return new AccountingError('oauth', msg, { status: res.status });
  return new AccountingError('http', msg, { status: res.status });
}

/**
 * Xero's MS-JSON dates, `/Date(1552327126164)/` or `/Date(1552327126164+0000)/` (the number is
 * UTC milliseconds; the offset is informational). ISO strings are accepted too.
 */
export function parseXeroDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(value);
  if (m) return new Date(Number(m[1]));
  if (/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?$/.test(value))
    return new Date(value.length === 10 ? `${value}T00:00:00Z` : `${value}Z`);
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** A `where` string literal: Xero filters use C#-style double-quoted strings. */
export const whereString = (v: string): string => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
