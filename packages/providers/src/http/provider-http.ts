/**
 * The one HTTP call of the provider adapters: fetch with a timeout, the body read once (text and,
 * when it parses, JSON), and failures to get an answer turned into `ProviderError` kinds `timeout`
 * or `network`. Non-2xx answers are returned, not thrown: each adapter reads its provider's error
 * body; `statusKind` and `retryAfterSeconds` give the shared part of that reading.
 * Messages carry the caller's label, never the URL (which may hold credentials) or the fetch error.
 */
import { ProviderError } from './provider-error.js';

export interface ProviderResponse {
  status: number;
  ok: boolean;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when empty or not JSON. */
  json: unknown;
}

export interface ProviderRequest {
  /** Names the call in messages (e.g. `JustCall send SMS`). */
  label: string;
  timeoutMs: number;
  /** Appended to the timeout message (e.g. "the message may have been sent"). */
  timeoutNote?: string;
  /** Adds the low-level cause (e.g. `ECONNREFUSED`) to a network failure's message. */
  causeInMessage?: boolean;
  fetch?: typeof fetch;
  /** Builds the error; defaults to `ProviderError` (subclasses keep their capability name). */
  error?: (kind: 'timeout' | 'network', message: string, status?: number) => Error;
}

const causeCode = (e: unknown): string => {
  const c = e instanceof Error ? e.cause : undefined;
  if (c && typeof c === 'object' && 'code' in c) return ` (${String(c.code)})`;
  return c instanceof Error ? ` (${c.message})` : '';
};

export async function providerFetch(
  url: string | URL,
  init: RequestInit,
  r: ProviderRequest,
): Promise<ProviderResponse> {
  const fail =
    r.error ?? ((kind, message, status) => new ProviderError(kind, message, status === undefined ? {} : { status }));
  let res: Response;
  try {
    res = await (r.fetch ?? fetch)(url, { ...init, signal: AbortSignal.timeout(r.timeoutMs) });
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    if (name === 'TimeoutError' || name === 'AbortError')
      throw fail(
        'timeout',
        `${r.label}: no answer within ${r.timeoutMs} ms${r.timeoutNote ? ` (${r.timeoutNote})` : ''}`,
      );
    throw fail('network', `${r.label}: request failed${r.causeInMessage ? causeCode(e) : ''}`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw fail('network', `${r.label}: response could not be read`, res.status);
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, ok: res.ok, headers: res.headers, text, json };
}

/** The kind shared by every provider for an error status (adapters refine 400/404 where their protocol says more). */
export function statusKind(status: number): 'rate_limited' | 'unauthorized' | 'rejected' | 'http' {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'unauthorized';
  if (status >= 400 && status < 500) return 'rejected';
  return 'http';
}

/** `Retry-After` as seconds (delta seconds, or an HTTP date when `acceptDate`), else `fallback`. */
export function retryAfterSeconds(
  headers: Headers,
  fallback: number,
  opts: { acceptDate?: boolean; now?: Date } = {},
): number {
  const raw = headers.get('retry-after')?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (!opts.acceptDate) return fallback;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? fallback : Math.max(0, Math.ceil((at - (opts.now ?? new Date()).getTime()) / 1000));
}

/** The body as a JSON object, `{}` otherwise. */
export const jsonObject = (json: unknown): Record<string, unknown> =>
  json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
