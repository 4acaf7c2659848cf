/**
 * The one error every provider adapter throws: what happened (`kind`), whether a later attempt
 * may succeed (`retryable`) and when (`retryAfterSeconds`). Callers decide retries on this class
 * only, never on a vendor's. The capability names (`AccountingError`, `SmsError`, `ChatPostError`,
 * `ConversionsSendError`, `EmailSendError`) are thin subclasses kept for the fields only their
 * capability has; each narrows `kind` to the kinds its port documents.
 * Messages never contain credentials (tokens, secrets, webhook URLs).
 */

export type ProviderErrorKind =
  | 'invalid_input' // refused before sending (our side)
  | 'invalid_grant' // OAuth refresh token / code expired, revoked or reused: reconnect
  | 'invalid_client' // wrong client id/secret: configuration
  | 'oauth' // other OAuth error
  | 'unauthorized' // credentials refused
  | 'forbidden' // not allowed for this account (scope, tenant)
  | 'not_found'
  | 'validation' // the provider refused the data, with messages in `details`
  | 'rejected' // the provider refused the request (other 4xx)
  | 'rate_limited' // 429: retry after `retryAfterSeconds`
  | 'http' // other status (5xx…)
  | 'network'
  | 'timeout'
  | 'format' // the answer was not what the protocol says
  | (string & {}); // capability-specific kinds (see each port)

export interface ProviderErrorOptions {
  status?: number;
  retryAfterSeconds?: number;
  /** Provider messages (never credentials). */
  details?: string[];
  /** Overrides the rule below when the provider says more (e.g. a "transient" flag). */
  retryable?: boolean;
}

export class ProviderError<K extends string = ProviderErrorKind> extends Error {
  readonly kind: K;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly details: string[];
  private readonly retryableOverride: boolean | undefined;

  constructor(kind: K, message: string, opts: ProviderErrorOptions = {}) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.details = opts.details ?? [];
    this.retryableOverride = opts.retryable;
  }

  /**
   * A later attempt may succeed without anyone changing anything. Careful with `timeout` on a
   * call without idempotency key: the first attempt may have taken effect.
   */
  get retryable(): boolean {
    if (this.retryableOverride !== undefined) return this.retryableOverride;
    const k: string = this.kind;
    return (
      k === 'rate_limited' ||
      k === 'network' ||
      k === 'timeout' ||
      k === 'unavailable' ||
      (k === 'http' && (this.status ?? 500) >= 500)
    );
  }
}

export const isProviderError = (e: unknown): e is ProviderError => e instanceof ProviderError;
