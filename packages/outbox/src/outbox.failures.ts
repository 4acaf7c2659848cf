/** How a delivery failure is told to the relay, and when a failed row is tried again. */

/**
 * Thrown by a handler when a receiver asked to wait (HTTP 429 with Retry-After, a local rate limit):
 * the row is retried after `retryAfterMs` and the wait does not count as a failed attempt.
 */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'RetryLater';
  }
}

/** Thrown by a handler when retrying cannot help (the row goes straight to the dead letters). */
export class PermanentFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentFailure';
  }
}

export function backoffDelay(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1)));
}

/** A failure as stored on its row (`last_error`): its code and message, at most 2 000 characters. */
export function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const text = e?.message ?? String(err);
  return (e?.code ? `${e.code}: ${text}` : text).slice(0, 2000);
}
