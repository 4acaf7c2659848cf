import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

const now = () => Math.floor(Date.now() / 1000);
const event = (id: string) => ({
  event_name: 'Lead',
  event_id: id,
  event_source_url: 'https://www.example.com/products/roller-shades',
  email: 'Lead@Example.com',
  phone: '(303) 555-0100',
});
const queued = async (h: TestLanding) =>
  (await h.db.query<Record<string, any>>(`SELECT * FROM outbox WHERE topic = 'conversions.lead'`)).rows;

describe('/api/lp/meta-capi with pixel credentials', () => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding({ META_PIXEL_ID: '123456789012', META_ACCESS_TOKEN: 'test-access-token' });
  });
  afterAll(() => h.close());

  it('queues a Lead event once per event_id, with the client IP and user agent', async () => {
    const r = await h.post(
      '/api/lp/meta-capi',
      { ...event('evt-000000001'), event_time: now() - 5 },
      { 'user-agent': 'Mozilla/5.0 Test' },
    );
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ queued: true });
    const again = await h.post('/api/lp/meta-capi', event('evt-000000001'));
    expect(again.body).toEqual({ queued: false, reason: 'duplicate' });
    const rows = await queued(h);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({
      eventId: 'evt-000000001',
      user: { email: 'Lead@Example.com', clientUserAgent: 'Mozilla/5.0 Test', clientIpAddress: '127.0.0.1' },
    });
  });

  it('sends nothing for a visitor with Global Privacy Control (Sec-GPC: 1)', async () => {
    const r = await h.post('/api/lp/meta-capi', event('evt-gpc-0001'), { 'sec-gpc': '1' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ queued: false, reason: 'gpc' });
    expect((await queued(h)).some((q) => q.payload.eventId === 'evt-gpc-0001')).toBe(false);
  });

  it('refuses an event without an id or URL, or older than 7 days', async () => {
    const r = await h.post('/api/lp/meta-capi', { event_name: 'Purchase', event_source_url: 'ftp://x' });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'event_id',
      'event_name',
      'event_source_url',
    ]);
    const old = await h.post('/api/lp/meta-capi', { ...event('evt-old-00001'), event_time: now() - 8 * 86400 });
    expect(old.status).toBe(422);
    expect(old.body.errors[0]).toMatchObject({ field: 'event_time', rule: 'range' });
  });
});

describe('/api/lp/meta-capi without pixel credentials', () => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding();
  });
  afterAll(() => h.close());

  it('accepts the call but queues nothing', async () => {
    {
      const r = await h.post('/api/lp/meta-capi', event('evt-noconfig-1'));
      expect(r.status).toBe(202);
      expect(r.body).toEqual({ queued: false, reason: 'not_configured' });
      expect(await queued(h)).toHaveLength(0);
    }
  });
});
