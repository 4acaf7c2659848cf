import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

let h: TestLanding;
beforeAll(async () => {
  h = await startTestLanding();
});
afterAll(() => h.close());

const valid = {
  name: 'Jane Roe',
  email: 'jane@example.com',
  phone: '(303) 555-0100',
  zip: '80211',
  products: ['roller-shades'],
};

/** Posts the estimate with a fresh bot-check token, expects 201, and answers the submission's id. */
async function accepted(body: Record<string, unknown>): Promise<string> {
  const r = await h.post('/api/estimate', { ...body, captcha_token: await h.token() });
  expect(r.status).toBe(201);
  return r.body.id as string;
}

describe('POST /api/estimate', () => {
  it('commits the submission and its outbox row before answering 201 with the id', async () => {
    const r = await h.post('/api/estimate', {
      ...valid,
      form_source: 'about_popup_dwell_phone1',
      gclid: 'G-1',
      utm_source: 'google',
      utm_term: 'roller shades',
      captcha_token: await h.token(),
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'accepted' });
    const sub = await h.db.query<Record<string, any>>('SELECT * FROM submissions WHERE id = $1', [r.body.id]);
    expect(sub.rows[0]).toMatchObject({
      kind: 'estimate',
      form_source: 'about_popup_dwell_phone1',
      attribution: { gclid: 'G-1', utm_source: 'google', utm_term: 'roller shades' },
    });
    expect(sub.rows[0]!.form_source_parsed).toMatchObject({ kind: 'popup', trigger: 'dwell', callback: true });
    expect(JSON.stringify(sub.rows[0]!.payload)).not.toContain('captcha_token');
    const out = await h.db.query<Record<string, any>>('SELECT * FROM outbox WHERE aggregate_id = $1', [r.body.id]);
    expect(out.rows).toHaveLength(1);
    expect(out.rows[0]).toMatchObject({ topic: 'submission.estimate', status: 'pending' });
    expect(out.rows[0]!.payload.tags).toEqual(['SITE: ACME BLINDS', 'PHONE CALLBACK']);
  });

  it('tags a landing-page lead LP: <SLUG> and records an absent form_source as lp_form_legacy', async () => {
    const id = await accepted({ name: 'Lp Lead', phone: '3035550111', lp_slug: 'spring-sale' });
    const out = await h.db.query<Record<string, any>>('SELECT payload FROM outbox WHERE aggregate_id = $1', [id]);
    expect(out.rows[0]!.payload.tags).toEqual(['LP: SPRING-SALE']);
    expect(out.rows[0]!.payload.formSource).toMatchObject({ kind: 'legacy_default', raw: 'lp_form_legacy' });
  });

  it('records an unknown form_source as unknown instead of refusing the lead', async () => {
    const id = await accepted({ name: 'Odd', email: 'odd@example.com', form_source: 'Totally New Widget!' });
    const sub = await h.db.query<Record<string, any>>('SELECT form_source_parsed FROM submissions WHERE id = $1', [id]);
    expect(sub.rows[0]!.form_source_parsed).toMatchObject({ kind: 'unknown', reason: 'unrecognised' });
  });

  it('folds a double submit of the same content seconds apart into one submission', async () => {
    const body = { ...valid, email: 'double@example.com' };
    const [a, b] = await Promise.all([
      h.post('/api/estimate', { ...body, captcha_token: await h.token() }),
      h.post('/api/estimate', { ...body, captcha_token: await h.token() }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).toBe(b.body.id);
    const n = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM submissions WHERE payload->>'email' = 'double@example.com'`,
    );
    expect(n.rows[0]!.n).toBe(1);
  });
});

describe('POST /api/estimate refuses bad input with a problem body naming each field and rule', () => {
  const cases: [string, Record<string, unknown>, { field: string; rule: string }[]][] = [
    ['a missing name', { email: 'a@b.co' }, [{ field: 'name', rule: 'required' }]],
    ['a blank name', { name: '   ', email: 'a@b.co' }, [{ field: 'name', rule: 'min_length' }]],
    [
      'neither phone nor email',
      { name: 'X' },
      [
        { field: 'phone', rule: 'required_one_of' },
        { field: 'email', rule: 'required_one_of' },
      ],
    ],
    ['a malformed email', { name: 'X', email: 'not-an-email' }, [{ field: 'email', rule: 'format' }]],
    ['a phone with letters', { name: 'X', phone: 'call me' }, [{ field: 'phone', rule: 'format' }]],
    ['a phone that is too short', { name: 'X', phone: '12345' }, [{ field: 'phone', rule: 'format' }]],
    ['a bad postal code', { name: 'X', email: 'a@b.co', zip: '<zip>' }, [{ field: 'zip', rule: 'format' }]],
    [
      'products that are not slugs',
      { name: 'X', email: 'a@b.co', products: ['Roller Shades'] },
      [{ field: 'products.0', rule: 'format' }],
    ],
    [
      'products that are not a list',
      { name: 'X', email: 'a@b.co', products: 'roller-shades' },
      [{ field: 'products', rule: 'type' }],
    ],
    [
      'too many products',
      { name: 'X', email: 'a@b.co', products: Array.from({ length: 21 }, (_, i) => `p${i}`) },
      [{ field: 'products', rule: 'max_items' }],
    ],
    ['a name over 100 characters', { name: 'x'.repeat(101), email: 'a@b.co' }, [{ field: 'name', rule: 'max_length' }]],
    [
      'a message over 2000 characters',
      { name: 'X', email: 'a@b.co', message: 'm'.repeat(2001) },
      [{ field: 'message', rule: 'max_length' }],
    ],
    [
      'a form_source over 200 characters',
      { name: 'X', email: 'a@b.co', form_source: 'f'.repeat(201) },
      [{ field: 'form_source', rule: 'max_length' }],
    ],
    [
      'a gclid over 200 characters',
      { name: 'X', email: 'a@b.co', gclid: 'g'.repeat(201) },
      [{ field: 'gclid', rule: 'max_length' }],
    ],
    ['a name that is a number', { name: 42, email: 'a@b.co' }, [{ field: 'name', rule: 'type' }]],
  ];
  it.each(cases)('%s: 422', async (_label, body, expected) => {
    const before = await h.count('submissions');
    const r = await h.post('/api/estimate', { ...body, captcha_token: await h.token() });
    expect(r.status).toBe(422);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      type: expect.any(String),
      title: expect.any(String),
    });
    expect(r.body.errors).toEqual(expected.map((e) => expect.objectContaining(e)));
    expect(await h.count('submissions')).toBe(before);
  });

  it('a body that is not an object: 422 naming the body', async () => {
    const r = await h.post('/api/estimate', '[1,2]');
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ field: '(body)', rule: 'type' });
  });

  it('malformed JSON: 400', async () => {
    const r = await h.post('/api/estimate', '{"name": ');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('MALFORMED_JSON');
  });

  it('a form-encoded or text body: 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const r = await h.post('/api/estimate', 'name=x', { 'content-type': type });
      expect(r.status, type).toBe(415);
      expect(r.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('a body over the size limit: 413', async () => {
    const r = await h.post('/api/estimate', { name: 'X', email: 'a@b.co', message: 'm'.repeat(20_000) });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('POST /api/helpdesk', () => {
  it('commits a ticket submission for delivery as a helpdesk.ticket', async () => {
    const r = await h.post('/api/helpdesk', {
      name: 'Jim',
      email: 'jim@example.com',
      subject: 'Cord snapped',
      message: 'Kitchen blind cord.',
      captcha_token: await h.token('helpdesk'),
    });
    expect(r.status).toBe(201);
    const out = await h.db.query<Record<string, any>>('SELECT topic, payload FROM outbox WHERE aggregate_id = $1', [
      r.body.id,
    ]);
    expect(out.rows[0]).toMatchObject({
      topic: 'submission.helpdesk',
      payload: { subject: 'Cord snapped', contact: { email: 'jim@example.com' } },
    });
  });

  it('needs an email, a subject and a message', async () => {
    const r = await h.post('/api/helpdesk', { name: 'Jim', captcha_token: await h.token('helpdesk') });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'message', 'subject']);
  });
});
