/**
 * Fuzz suite of the landing host's public endpoints (fixed seed, bounded runs: FUZZ_SEED/FUZZ_RUNS
 * to explore). Every request, valid or hostile, gets an answer below 500; every refusal is
 * problem+json; a NUL or lone surrogate anywhere is a 422 naming that field, before the bot check.
 */
import { bodyOf, encoded, expectProblemContract, fuzzParams, fuzzTimeout, queryOf } from '@platform/http-kit/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../test/support/landing-harness.js';

const LIMIT = 16_384;
let h: TestLanding;
beforeAll(async () => {
  h = await startTestLanding({
    TRUST_PROXY: 'true',
    MAGNET_SIGNUP: 'on',
    META_PIXEL_ID: '1234567890',
    META_ACCESS_TOKEN: 'meta-test-token',
  });
}, 120_000);
afterAll(() => h?.close());

const TOKEN = '\u0001token';
const token = fc.constant(TOKEN);
// Valid values; bodyOf mixes in the invalid and hostile ones.
const email = fc.constantFrom('jane@example.com', 'a@b.co', 'JANE@Example.COM ');
const phone = fc.constantFrom('(303) 555-0100', '+44 20 7946 0958', '303.555.0142', '');
const zip = fc.constantFrom('80202', '80202-1234', 'K1A 0B1', '');
const short = fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,29}$/);

const endpoints = [
  {
    path: '/api/estimate',
    action: 'estimate',
    body: bodyOf({
      name: short,
      phone,
      email,
      zip,
      products: fc.array(fc.constantFrom('roller-shades', 'shutters'), { maxLength: 3 }),
      message: fc.string({ maxLength: 100 }),
      form_source: fc.constantFrom('about_popup_scroll_phone1', 'lp_form_legacy', 'x'),
      gclid: short,
      utm_source: short,
      lp_slug: short,
      captcha_token: token,
    }),
  },
  {
    path: '/api/helpdesk',
    action: 'helpdesk',
    body: bodyOf({ name: short, email, phone, subject: short, message: short, captcha_token: token }),
  },
  {
    path: '/api/magnet-signup',
    action: 'magnet_signup',
    body: bodyOf({
      email,
      magnet_type: fc.constantFrom('swatch', 'price_guide', 'lookbook'),
      form_source: short,
      address: short,
      captcha_token: token,
    }),
  },
  {
    path: '/api/lp/meta-capi',
    action: '',
    body: bodyOf({
      event_name: fc.constant('Lead'),
      event_id: fc.stringMatching(/^[A-Za-z0-9_.:-]{8,20}$/),
      event_source_url: fc.constantFrom('https://acme.example/lp/spring', 'http://localhost/x?utm_source=g'),
      event_time: fc.integer({ min: -3600, max: 0 }).map((d) => Math.floor(Date.now() / 1000) + d),
      email,
      phone,
      first_name: short,
      last_name: short,
      fbc: short,
      fbp: short,
      content_name: short,
    }),
  },
  {
    path: '/local-captcha/token',
    action: '',
    body: bodyOf({
      action: fc.constantFrom('estimate', 'helpdesk'),
      hostname: fc.constant('localhost'),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    path: '/local-captcha/siteverify',
    action: '',
    body: bodyOf({ secret: short, response: short, remoteip: fc.ipV4() }),
  },
] as const;

/** Puts a freshly minted bot-check token where the generator left the placeholder. */
async function withToken(payload: Buffer, action: string): Promise<Buffer> {
  const s = payload.toString('latin1');
  if (!action || !s.includes('\\u0001token')) return payload;
  return Buffer.from(s.replace('\\u0001token', await h.token(action)), 'latin1');
}

describe('fuzzing the public endpoints', () => {
  for (const e of endpoints) {
    it(
      `${e.path}: no 5xx, every refusal problem+json, bad strings refused naming the field`,
      async () => {
        const statuses = new Map<number, number>();
        await fc.assert(
          fc.asyncProperty(encoded(e.body, LIMIT), queryOf, fc.ipV4(), async (b, q, ip) => {
            // UTF-16 bodies keep the placeholder in two-byte units: only UTF-8 bodies get a real token.
            const payload = b.kind === 'utf-8' ? await withToken(b.payload, e.action) : b.payload;
            const r = await h.landing.app.inject({
              method: 'POST',
              url: `${e.path}${q.search}`,
              headers: { 'x-forwarded-for': ip, ...(b.contentType ? { 'content-type': b.contentType } : {}) },
              payload,
            });
            // The embedded reCAPTCHA stand-in answers in its own protocol ({error} or siteverify JSON).
            const nonProblem = () => e.path.startsWith('/local-captcha/');
            expectProblemContract(
              r,
              { ...(b.json === undefined ? {} : { json: b.json }), query: q.decoded, where: `${e.path} ${b.kind}` },
              { nonProblem },
            );
            if (r.statusCode === 201) expect(r.json().id).toEqual(expect.any(String));
            statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
          }),
          fuzzParams(200),
        );
        // The runs reached the service (accepted writes) as well as every kind of refusal.
        expect([...statuses.keys()].filter((s) => s < 300).length, JSON.stringify([...statuses])).toBeGreaterThan(0);
        expect(statuses.get(422) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
        if (process.env['FUZZ_VERBOSE']) console.log(e.path, JSON.stringify([...statuses].sort()));
      },
      fuzzTimeout(60_000),
    );
  }

  it(
    'GET routes (health, captcha script, unknown paths): no 5xx, refusals problem+json',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('/health', '/local-captcha/api.js', '/api/estimate', '/nope'),
          queryOf,
          async (path, q) => {
            const r = await h.landing.app.inject({ method: 'GET', url: `${path}${q.search}` });
            expectProblemContract(r, { json: null, query: q.decoded, where: `GET ${path}${q.search}` });
          },
        ),
        fuzzParams(100),
      );
    },
    fuzzTimeout(60_000),
  );
});

describe('bad strings are refused before the bot check', () => {
  it.each([
    ['/api/estimate', 'estimate', { name: 'Jane Roe', email: 'jane@example.com', phone: '(303) 555-0100' }],
    [
      '/api/helpdesk',
      'helpdesk',
      { name: 'Jane Roe', email: 'jane@example.com', subject: 'Cord', message: 'Snapped.' },
    ],
    ['/api/magnet-signup', 'magnet_signup', { email: 'jane@example.com', magnet_type: 'price_guide' }],
  ])('%s: 422 naming the field, then the same token still passes', async (path, action, valid) => {
    const captcha_token = await h.token(action);
    const before = await h.count('outbox');
    for (const [field, value] of [
      ['name', 'Jane\u0000Roe'],
      ['email', 'jane\ud800@example.com'],
      ['form_source', 'x\u0000'],
    ] as const) {
      const r = await h.post(path, { ...valid, [field]: value, captcha_token }, { 'x-forwarded-for': '203.0.113.9' });
      expect(r.status).toBe(422);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.errors).toEqual([expect.objectContaining({ field })]);
    }
    expect(await h.count('outbox')).toBe(before);
    const ok = await h.post(path, { ...valid, captcha_token }, { 'x-forwarded-for': '203.0.113.9' });
    expect(ok.status).toBe(201);
  });

  it('takes a form sent as UTF-16 like the same form in UTF-8', async () => {
    const body = JSON.stringify({
      name: 'Zoë Ångström',
      email: 'zoe@example.com',
      zip: '80202',
      captcha_token: await h.token(),
    });
    const r = await fetch(`${h.url}/api/estimate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]),
    });
    expect(r.status).toBe(201);
    const { id } = (await r.json()) as { id: string };
    const row = await h.db.query<{ name: string }>(`SELECT payload->>'name' AS name FROM submissions WHERE id = $1`, [
      id,
    ]);
    expect(row.rows[0]?.name).toBe('Zoë Ångström');
  });

  it('refuses a NUL in a query parameter too, naming it', async () => {
    const r = await h.landing.app.inject({
      method: 'POST',
      url: '/api/estimate?utm_source=a%00b',
      payload: { name: 'x' },
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors[0]).toMatchObject({ field: 'query.utm_source', rule: 'no_nul_character' });
  });
});
