/**
 * The one idempotency primitive every write that takes an Idempotency-Key uses:
 *
 * - the key's syntax (`idempotencyKeyOf`: 1 to 255 visible ASCII characters, else IDEMPOTENCY_KEY_INVALID);
 * - the request's fingerprint (`fingerprint`: SHA-256 of the body in canonical form), which tells a retry
 *   from another request under the same key and folds double submits;
 * - the stored answer (`replayStored`): the domain outcome and body of the first request, replayed as
 *   they were; rows stored before outcomes existed carry an HTTP status and still replay;
 * - the lease (`applyUnderLease`): an effect outside the database (the ERP) is applied by one request at
 *   a time; a refusal that changed nothing frees the key, any other failure lets the next request with
 *   the key take over at once and look for the effect before applying it again.
 */
import { createHash } from 'node:crypto';

import { AppError, type WriteAnswer, type WriteOutcome } from '@platform/kernel';

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header: undefined when absent; a value of the wrong shape is refused. */
export function idempotencyKeyOf(header: unknown): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_RE.test(header))
    throw new AppError('IDEMPOTENCY_KEY_INVALID', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  return header;
}

export const keyReused = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request.');

export const requestInProgress = () =>
  new AppError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'The first request with this Idempotency-Key has not finished.');

// Plain loops: the same object as Object.fromEntries(keys.sort().filter().map()) without the
// intermediate arrays (this runs on every submission).
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = canonical(v[i]);
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    // No prototype, so a `__proto__` key is stored as an own key, as Object.fromEntries does.
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of keys) {
      const x = o[k];
      if (x !== undefined) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

/** SHA-256 of `[kind, body]` with the body's keys sorted: key order does not make another request. */
export function fingerprint(kind: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([kind, canonical(body)]))
    .digest('hex');
}

/** A stored answer as the owner's table holds it: the outcome, or (rows stored before it) the status. */
export interface StoredAnswerRow {
  fingerprint: string;
  outcome: string | null;
  status_code: number | null;
  response: unknown;
}

export function storedOutcome(row: Pick<StoredAnswerRow, 'outcome' | 'status_code'>): WriteOutcome {
  if (row.outcome === 'created' || row.outcome === 'updated') return row.outcome;
  return row.status_code === 201 ? 'created' : 'updated';
}

/** The first request's answer, replayed; another request under the same key is refused. */
export function replayStored<B>(row: StoredAnswerRow, fp: string, alsoSame?: string): WriteAnswer<B> {
  if (row.fingerprint !== fp && row.fingerprint !== alsoSame) throw keyReused();
  return { outcome: storedOutcome(row), body: row.response as B, replayed: true };
}

/** What happens to a held lease when its effect failed. */
export interface Lease {
  /** Nothing was applied: the key (or the record) is free again. */
  forget(): Promise<void>;
  /** The effect may have been applied: keep the intent, let the next request take over now. */
  release(): Promise<void>;
}

export const LEASE_SECONDS = 60;

/**
 * Runs `apply` under a lease already taken. On failure the lease is forgotten when `nothingApplied(e)`
 * and released otherwise; the failure itself always reaches the caller.
 */
export async function applyUnderLease<R>(
  lease: Lease | undefined,
  apply: () => Promise<R>,
  nothingApplied: (e: unknown) => boolean,
): Promise<R> {
  try {
    return await apply();
  } catch (e) {
    // The lease is tidied on a best-effort basis: a lapsed lease is taken over anyway.
    if (lease) await (nothingApplied(e) ? lease.forget() : lease.release()).catch(() => undefined);
    throw e;
  }
}

export interface WaitOptions {
  /** How many times to look again before giving up (default 40). */
  tries?: number;
  /** Between looks (default 250 ms). */
  pauseMs?: number;
  pause?: (ms: number) => Promise<void>;
}

/**
 * Waits out another request's lease: runs `attempt` until it answers (anything but undefined: it took
 * the lease, or found the other's result), pausing between tries; IDEMPOTENCY_REQUEST_IN_PROGRESS
 * when the other holds it past the last try (its lease lapses later and the next request takes over).
 */
export async function untilFree<T>(attempt: () => Promise<T | undefined>, o: WaitOptions = {}): Promise<T> {
  const pause = o.pause ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let tried = 0; ; tried++) {
    const got = await attempt();
    if (got !== undefined) return got;
    if (tried >= (o.tries ?? 40)) throw requestInProgress();
    await pause(o.pauseMs ?? 250);
  }
}
