import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

describe('/api/magnet-signup, removed by decision (default)', () => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding();
  });
  afterAll(() => h.close());

  it('answers 410 Gone with a problem body to a valid request and stores nothing', async () => {
    const r = await h.post(
      '/api/magnet-signup',
      { email: 'gone@example.com', magnet_type: 'price_guide', form_source: 'home_magnet_pricing' },
      { 'x-forwarded-for': '1' },
    );
    expect(r.status).toBe(410);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ code: 'FEATURE_GONE', status: 410 });
    expect(await h.count('magnet_subscribers')).toBe(0);
  });

  it('still validates first: a bad magnet_type or a swatch without address is 422', async () => {
    const bad = await h.post('/api/magnet-signup', { email: 'x@example.com', magnet_type: 'pricing' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'magnet_type', rule: 'enum' })]);
    const swatch = await h.post('/api/magnet-signup', { email: 'x@example.com', magnet_type: 'swatch' });
    expect(swatch.status).toBe(422);
    expect(swatch.body.errors).toEqual([expect.objectContaining({ field: 'address', rule: 'required_for_swatch' })]);
  });
});

describe('/api/magnet-signup rate limit', () => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding();
  });
  afterAll(() => h.close());

  it('limits a client to 5 requests per 60 s: the 6th gets 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestLanding['post']>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await h.post('/api/magnet-signup', { email: `r${i}@example.com`, magnet_type: 'lookbook' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([410, 410, 410, 410, 410, 429]);
    expect(last!.body.code).toBe('RATE_LIMITED');
    const retry = Number(last!.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
  }, 60_000);
});

describe.each([
  ['true', 'the one proxy hop in front'],
  ['127.0.0.1', 'the listed proxy address'],
])('/api/magnet-signup behind a proxy (TRUST_PROXY=%s: %s)', (trustProxy) => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding({ TRUST_PROXY: trustProxy });
  });
  afterAll(() => h.close());

  it('a client forging X-Forwarded-For entries is still one client: the 6th request gets 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // What the client sent, then what the proxy appended: the client's real address.
      const forged = `${i}.${(i * 7) % 256}.${(i * 13) % 256}.1`;
      const r = await h.post(
        '/api/magnet-signup',
        { email: `f${i}@example.com`, magnet_type: 'lookbook' },
        { 'x-forwarded-for': `${forged}, 203.0.113.9` },
      );
      statuses.push(r.status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    // A different real client behind the same proxy has its own budget.
    const other = await h.post(
      '/api/magnet-signup',
      { email: 'o@example.com', magnet_type: 'lookbook' },
      { 'x-forwarded-for': '203.0.113.10' },
    );
    expect(other.status).toBe(410);
  });
});

describe('/api/magnet-signup with MAGNET_SIGNUP=on', () => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding({ MAGNET_SIGNUP: 'on' });
  });
  afterAll(() => h.close());

  it('stores a subscriber with its parsed form_source (the table exists: no "relation does not exist")', async () => {
    const r = await h.post('/api/magnet-signup', {
      email: 'Guide@Example.com',
      magnet_type: 'price_guide',
      form_source: 'about_magnet_pricing_popup',
      captcha_token: await h.token('magnet_signup'),
    });
    expect(r.status).toBe(201);
    const row = await h.db.query<Record<string, any>>(
      'SELECT email, magnet_type, form_source_parsed FROM magnet_subscribers',
    );
    expect(row.rows[0]).toMatchObject({
      email: 'guide@example.com',
      magnet_type: 'price_guide',
      form_source_parsed: { kind: 'magnet', magnet: 'pricing', widget: 'popup', page: 'about' },
    });
  });

  it('a swatch needs an address, enforced by the API and by the table', async () => {
    const r = await h.post('/api/magnet-signup', {
      email: 's@example.com',
      magnet_type: 'swatch',
      captcha_token: await h.token('magnet_signup'),
    });
    expect(r.status).toBe(422);
    await expect(
      h.db.query(
        `INSERT INTO magnet_subscribers (tenant_id, email, magnet_type) SELECT id, 's@example.com', 'swatch' FROM tenants LIMIT 1`,
      ),
    ).rejects.toThrow(/swatch_needs_address/);
    const ok = await h.post('/api/magnet-signup', {
      email: 's@example.com',
      magnet_type: 'swatch',
      address: '12 Elm St, Denver CO',
      captcha_token: await h.token('magnet_signup'),
    });
    expect(ok.status).toBe(201);
  });

  it('requires the bot check with the magnet_signup action', async () => {
    const r = await h.post('/api/magnet-signup', {
      email: 'b@example.com',
      magnet_type: 'lookbook',
      captcha_token: await h.token('estimate'),
    });
    expect(r.status).toBe(403);
    expect(r.body.reason).toBe('wrong_action');
  });
});
