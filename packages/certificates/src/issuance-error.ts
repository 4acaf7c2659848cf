/**
 * What went wrong when asking the CA, in our words. `rate_limited` and `refused` are retried with
 * backoff (a refusal can be a CNAME that has not propagated yet); both end in `failed` after the
 * last attempt, with the CA's reason kept.
 */
export type IssuanceFailureKind = 'refused' | 'rate_limited' | 'unavailable';

export class IssuanceError extends Error {
  constructor(
    readonly kind: IssuanceFailureKind,
    message: string,
    /** The CA's Retry-After, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'IssuanceError';
  }
}

/** RFC 8555 §6.7 problem types that mean "not now" rather than "not this". */
const RATE_LIMITED = 'urn:ietf:params:acme:error:rateLimited';

/** Maps an ACME client's error (problem document text or network failure) to an IssuanceError. */
export function classifyAcmeError(e: unknown): IssuanceError {
  if (e instanceof IssuanceError) return e;
  const message = e instanceof Error ? e.message : String(e);
  const type = (e as { type?: unknown } | undefined)?.type;
  if (type === RATE_LIMITED || /rateLimited|too many/i.test(message)) return new IssuanceError('rate_limited', message);
  const code = (e as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^E(CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|AI_AGAIN)$/.test(code))
    return new IssuanceError('unavailable', message);
  return new IssuanceError('refused', message.slice(0, 1000));
}
