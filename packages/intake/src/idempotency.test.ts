import { AppError } from '@platform/kernel';
import { describe, expect, it } from 'vitest';

import { applyUnderLease, fingerprint, idempotencyKeyOf, replayStored, storedOutcome } from './idempotency.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : 'not an AppError';
  }
  return 'no error';
};

describe('the Idempotency-Key header', () => {
  it('is absent, or 1 to 255 visible ASCII characters', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf('a-key_1~')).toBe('a-key_1~');
    expect(idempotencyKeyOf('x'.repeat(255))).toBe('x'.repeat(255));
    for (const bad of ['', 'x'.repeat(256), 'has space', 'clé', ['a', 'b'], 7])
      expect(
        codeOf(() => idempotencyKeyOf(bad)),
        String(bad),
      ).toBe('IDEMPOTENCY_KEY_INVALID');
  });
});

describe('the fingerprint', () => {
  it('ignores key order and undefined members but not values or kind', () => {
    const a = fingerprint('lead', { b: 1, a: { y: [1, { d: 2, c: 3 }], x: undefined } });
    expect(fingerprint('lead', { a: { y: [1, { c: 3, d: 2 }] }, b: 1 })).toBe(a);
    expect(fingerprint('lead', { a: { y: [1, { c: 3, d: 4 }] }, b: 1 })).not.toBe(a);
    expect(fingerprint('ticket', { a: { y: [1, { c: 3, d: 2 }] }, b: 1 })).not.toBe(a);
  });
});

describe('a stored answer', () => {
  const row = { fingerprint: 'fp', outcome: 'updated', status_code: null, response: { ok: 1 } };
  it('replays its outcome and body; another request under the key is refused', () => {
    expect(replayStored(row, 'fp')).toEqual({ outcome: 'updated', body: { ok: 1 }, replayed: true });
    expect(codeOf(() => replayStored(row, 'other'))).toBe('IDEMPOTENCY_KEY_REUSED');
  });
  it('stored with an HTTP status (before outcomes were stored) reads as the outcome it meant', () => {
    expect(storedOutcome({ outcome: null, status_code: 201 })).toBe('created');
    expect(storedOutcome({ outcome: null, status_code: 200 })).toBe('updated');
  });
});

describe('applying under a lease', () => {
  const lease = () => {
    const seen: string[] = [];
    return {
      seen,
      forget: async () => void seen.push('forget'),
      release: async () => void seen.push('release'),
    };
  };
  const refused = (e: unknown) => e instanceof AppError && e.code === 'ERP_REJECTED';

  it('a refusal that applied nothing frees the key and reaches the caller', async () => {
    const l = lease();
    const failing = applyUnderLease(l, () => Promise.reject(new AppError('ERP_REJECTED', 'no')), refused);
    await expect(failing).rejects.toMatchObject({ code: 'ERP_REJECTED' });
    expect(l.seen).toEqual(['forget']);
  });
  it('a failure that may have applied keeps the intent for the next request to take over', async () => {
    const l = lease();
    const failing = applyUnderLease(l, () => Promise.reject(new AppError('ERP_UNAVAILABLE', 'away')), refused);
    await expect(failing).rejects.toMatchObject({ code: 'ERP_UNAVAILABLE' });
    expect(l.seen).toEqual(['release']);
  });
  it('a success leaves the lease to the caller', async () => {
    const l = lease();
    expect(await applyUnderLease(l, async () => 42, refused)).toBe(42);
    expect(l.seen).toEqual([]);
  });
});
