/**
 * Shared pieces of the fuzz suites (apps/landing/src/fuzz.test.ts, apps/erp/src/fuzz.test.ts), built
 * on fast-check: request bodies mixing valid values with strings PostgreSQL cannot store (NUL, lone
 * surrogates), wrong types and unknown keys; encodings (UTF-8, UTF-16 with and without a declared
 * charset or BOM, unknown charsets, invalid bytes, truncated JSON, the wrong media type, oversized);
 * and the oracle: which field paths hold a bad string, computed here independently of the guard.
 * Test code only: nothing in an app imports it.
 */
import fc from 'fast-check';
import { expect } from 'vitest';

/** One fixed seed for CI; override with FUZZ_SEED to explore, FUZZ_RUNS to run longer. */
export const FUZZ_SEED = Number(process.env['FUZZ_SEED'] ?? 20261125);
export const fuzzRuns = (n: number): number => Number(process.env['FUZZ_RUNS'] ?? n);
export const fuzzParams = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns: fuzzRuns(numRuns), endOnFailure: true });
/** A test's time limit: the CI one, or an hour when FUZZ_RUNS asks for a long exploration. */
export const fuzzTimeout = (ms: number): number => (process.env['FUZZ_RUNS'] ? 3_600_000 : ms);

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** Strings that break storage: a NUL or a lone surrogate somewhere inside ordinary text. */
export const badString = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.oneof(fc.constant('\u0000'), loneSurrogate, fc.constant('\ud83d')),
    fc.string({ maxLength: 12 }),
  )
  .map(([a, b, c]) => a + b + c);
// `__proto__` and `constructor` keys are refused as prototype poisoning (400) before any string check.
const key = (arb: fc.Arbitrary<string>) =>
  arb.filter((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype');
/** Anything a client may put where a string belongs. */
export const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: badString },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) },
);
/** Any JSON value, nested a little, sometimes holding bad strings. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key(fc.oneof(fc.string({ maxLength: 8 }), badString)), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/**
 * A body of known fields (`fields` gives each one's valid values): wholly valid, valid but for one
 * field (a bad or odd string, any JSON, or absent), or chaos (every field any of those); unknown
 * keys ride along, some of them bad.
 */
export function bodyOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(fields);
  const valid = fc.record(fields);
  const odd = fc.oneof(anyString, anyJson, fc.constant(undefined));
  const oneOff = fc.tuple(valid, fc.constantFrom(...names), odd).map(([v, k, x]) => {
    const out: Record<string, unknown> = { ...v };
    if (x === undefined) delete out[k];
    else out[k] = x;
    return out;
  });
  const chaosFields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, ok] of Object.entries(fields))
    chaosFields[k] = fc.oneof(
      { weight: 3, arbitrary: ok },
      { weight: 2, arbitrary: anyString },
      { weight: 1, arbitrary: anyJson },
    );
  const chaos = fc.record(chaosFields, { requiredKeys: [] });
  const extra = fc.option(
    fc.dictionary(key(fc.oneof(fc.string({ maxLength: 10 }), badString)), anyJson, { maxKeys: 2 }),
    { freq: 2 },
  );
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: valid }, { weight: 4, arbitrary: oneOff }, { weight: 2, arbitrary: chaos }),
      extra,
    )
    .map(([known, more]) => ({ ...(more ?? {}), ...known }));
}

export interface EncodedBody {
  payload: Buffer;
  contentType: string | undefined;
  /** The JSON value the server should see, when the bytes are a faithful encoding of it. */
  json?: unknown;
  kind: string;
}

const utf16le = (s: string) => Buffer.from(s, 'utf16le');

/** How a body travels: mostly faithful JSON (several charsets), sometimes broken on purpose. */
export function encoded(body: fc.Arbitrary<unknown>, limit: number): fc.Arbitrary<EncodedBody> {
  return fc.oneof(
    {
      weight: 8,
      arbitrary: body.map((b) => ({
        payload: Buffer.from(JSON.stringify(b)),
        contentType: 'application/json',
        json: b,
        kind: 'utf-8',
      })),
    },
    {
      weight: 2,
      arbitrary: body.map((b) => ({
        payload: utf16le(JSON.stringify(b)),
        contentType: 'application/json; charset=utf-16le',
        json: b,
        kind: 'utf-16le',
      })),
    },
    {
      weight: 1,
      arbitrary: body.map((b) => ({
        payload: utf16le(JSON.stringify(b)).swap16(),
        contentType: 'application/json; charset=UTF-16BE',
        json: b,
        kind: 'utf-16be',
      })),
    },
    {
      weight: 1,
      arbitrary: body.map((b) => ({
        payload: Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le(JSON.stringify(b))]),
        contentType: 'application/json; charset=utf-16',
        json: b,
        kind: 'utf-16 bom',
      })),
    },
    {
      weight: 1,
      arbitrary: body.map((b) => ({
        payload: Buffer.from(JSON.stringify(b)),
        contentType: 'text/plain',
        kind: 'text/plain',
      })),
    },
    {
      weight: 1,
      arbitrary: body.map((b) => ({
        payload: Buffer.from(JSON.stringify(b)),
        contentType: 'application/json; charset=x-unknown',
        kind: 'unknown charset',
      })),
    },
    {
      weight: 1,
      arbitrary: body.map((b) => ({
        payload: Buffer.from(JSON.stringify(b)),
        contentType: undefined,
        kind: 'no content-type',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 200 })
        .map((u) => ({ payload: Buffer.from(u), contentType: 'application/json', kind: 'random bytes' })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(body, fc.nat()).map(([b, n]) => {
        const s = JSON.stringify(b);
        return {
          payload: Buffer.from(s.slice(0, n % Math.max(1, s.length))),
          contentType: 'application/json',
          kind: 'truncated',
        };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        payload: Buffer.from(JSON.stringify({ pad: 'x'.repeat(limit) })),
        contentType: 'application/json',
        kind: 'oversized',
      }),
    },
  );
}

// eslint-disable-next-line no-control-regex -- NUL and lone surrogates are what the fuzzer checks for
const BAD = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const escapeKey = (k: string) =>
  // eslint-disable-next-line no-control-regex -- C0 controls and surrogates are the characters to escape
  k.replace(/[\u0000-\u001f\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A query string (most often absent); `decoded` is what the server parses back from `search`. */
export const queryOf = fc
  .option(fc.dictionary(fc.constantFrom('q', 'page', 'utm_source', 'domain'), anyString, { minKeys: 1, maxKeys: 2 }), {
    freq: 3,
  })
  .map((q) => {
    if (!q) return { search: '', decoded: {} as Record<string, string> };
    const search = `?${new URLSearchParams(q).toString()}`;
    return { search, decoded: Object.fromEntries(new URLSearchParams(search)) };
  });

/** Every field name (as docs/public-api.md spells it) that holds a bad string or is a bad key. */
export function badFields(v: unknown, path: string[] = []): string[] {
  if (typeof v === 'string') return BAD.test(v) ? [path.join('.') || '(body)'] : [];
  if (Array.isArray(v)) return v.flatMap((x, i) => badFields(x, [...path, String(i)]));
  if (v && typeof v === 'object') {
    return Object.entries(v).flatMap(([k, x]) =>
      BAD.test(k) ? [[...path, escapeKey(k)].join('.')] : badFields(x, [...path, k]),
    );
  }
  return [];
}

export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Never a 5xx; every error answered as problem+json with a code; a bad string refused with 422 naming it. */
export function expectProblemContract(
  r: Answer,
  sent: { json?: unknown; query?: Record<string, string>; where: string },
  opts: { nonProblem?: (r: Answer) => boolean } = {},
): void {
  const ctx = `${sent.where} -> ${r.statusCode} ${r.body.slice(0, 300)}`;
  expect(r.statusCode, ctx).toBeLessThan(500);
  // Only a body that arrived intact (or no body) gets as far as the string check.
  const bad = sent.json === undefined ? [] : [...badFields(sent.query ?? {}, ['query']), ...badFields(sent.json)];
  if (bad.length) {
    expect(r.statusCode, ctx).toBe(422);
    expect(bad, ctx).toContain(JSON.parse(r.body).errors[0].field);
  }
  if (r.statusCode >= 400 && !opts.nonProblem?.(r)) {
    expect(String(r.headers['content-type']), ctx).toContain('application/problem+json');
    const p = JSON.parse(r.body);
    expect(p.status, ctx).toBe(r.statusCode);
    expect(p.code, ctx).toMatch(/^[A-Z_]+$/);
    if (p.code === 'VALIDATION_FAILED') expect(p.errors?.length, ctx).toBeGreaterThan(0);
  }
}
