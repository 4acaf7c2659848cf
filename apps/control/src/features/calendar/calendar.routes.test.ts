/**
 * Technicians' calendar feeds: the technician makes their feed from the field app (`me`), the office
 * any technician's; the feed parses with a real iCalendar parser (node-ical) and holds that
 * technician's jobs only, with times, address and a link to the job in the field app. Rotating stops
 * the old URL, revoking answers 404, and another tenant's host never opens this tenant's feed. A
 * rotation retried under its Idempotency-Key answers the same URL instead of rotating again.
 */
import { randomBytes } from 'node:crypto';

import ical, { type VEvent } from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, newJob, startJobsKit, tenantsWithErps } from '../jobs/jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let b: { id: string; token: string; owner: Principal };
let tech1: { principal: Principal; token: string };
let tech2: { principal: Principal; token: string };
let techB: { principal: Principal; token: string };
let job1: { id: string; name: string };

const start = new Date(Date.now() + 2 * 86_400_000);
start.setUTCHours(15, 0, 0, 0);
const end = new Date(start.getTime() + 2 * 3_600_000);

beforeAll(async () => {
  // A keyring: a rotation's URL is kept sealed with its Idempotency-Key's answer.
  kit = await startJobsKit({ SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}` });
  [a, b] = await tenantsWithErps(kit, 'cal-a', 'cal-b');
  tech1 = await kit.member(a.id, 'technician');
  tech2 = await kit.member(a.id, 'technician');
  techB = await kit.member(b.id, 'technician');
  const schedule = { scheduled_start: start.toISOString(), scheduled_end: end.toISOString() };
  job1 = (await kit.createJob(a.token, newJob({ ...schedule, technician_id: tech1.principal.userId }))) as never;
  await kit.createJob(
    a.token,
    newJob({ ...schedule, technician_id: tech2.principal.userId, customer: { name: 'Other Customer' } }),
  );
  await kit.createJob(
    b.token,
    newJob({ ...schedule, technician_id: techB.principal.userId, customer: { name: 'Bee Customer' } }),
  );
}, 180_000);
afterAll(async () => kit?.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, headers: Record<string, string> = {}) =>
  kit.app.inject({ method, url, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
/** The control plane's path of a feed URL (the browser reaches it through the frontend's /api/control). */
const pathOf = (url: string) => new URL(url).pathname.replace(/^\/api\/control/, '');
const events = (body: string) =>
  Object.values(ical.sync.parseICS(body)).filter((e): e is VEvent => e?.type === 'VEVENT');

describe('calendar feed', () => {
  let feed: string;

  it("a technician's feed holds their jobs only, with times, address and the field app's link", async () => {
    const made = await call('POST', '/technicians/me/calendar-feed', tech1.token);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({
      active: true,
      url: expect.stringMatching(/\/api\/control\/calendar\/[\w-]{32}\.ics$/),
    });
    feed = pathOf(made.json().url);
    const res = await call('GET', feed);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    const [e, ...more] = events(res.body);
    expect(more).toEqual([]);
    expect(e!.start.toISOString()).toBe(start.toISOString());
    expect(e!.end!.toISOString()).toBe(end.toISOString());
    expect(e!.location).toBe('1420 Larimer St, Denver, CO 80202');
    expect(e!.summary).toBe(`${job1.name} · Dana Whitfield`);
    // node-ical keeps a property with parameters (URL;VALUE=URI) as { params, val }.
    const url = e!.url as unknown as string | { val: string };
    expect(typeof url === 'string' ? url : url.val).toMatch(new RegExp(`/field/jobs/${job1.id}$`));
    expect(res.body).not.toContain('Other Customer');
  });

  it('a technician cannot touch another technician’s feed; the office can', async () => {
    const id = tech2.principal.userId;
    expect((await call('POST', `/technicians/${id}/calendar-feed`, tech1.token)).statusCode).toBe(404);
    expect((await call('GET', `/technicians/${id}/calendar-feed`, tech1.token)).statusCode).toBe(404);
    const made = await call('POST', `/technicians/${id}/calendar-feed`, a.token);
    expect(made.statusCode).toBe(200);
    expect(events((await call('GET', pathOf(made.json().url))).body).map((e) => e.summary)).toEqual([
      expect.stringContaining('Other Customer'),
    ]);
    // Not a technician: the owner has no feed.
    expect((await call('POST', `/technicians/${a.owner.userId}/calendar-feed`, a.token)).statusCode).toBe(404);
  });

  it("another tenant's host and another tenant's office never open this tenant's feed", async () => {
    expect((await call('GET', feed, undefined, { 'x-tenant-id': b.id })).statusCode).toBe(404);
    expect((await call('GET', feed, undefined, { 'x-tenant-id': a.id })).statusCode).toBe(200);
    expect((await call('DELETE', `/technicians/${tech1.principal.userId}/calendar-feed`, b.token)).statusCode).toBe(
      404,
    );
    const made = await call('POST', '/technicians/me/calendar-feed', techB.token);
    const bFeed = (await call('GET', pathOf(made.json().url))).body;
    expect(events(bFeed).map((e) => e.summary)).toEqual([expect.stringContaining('Bee Customer')]);
  });

  it('rotating stops the old URL; revoking answers 404', async () => {
    const rotated = await call('POST', '/technicians/me/calendar-feed', tech1.token);
    const next = pathOf(rotated.json().url);
    expect(next).not.toBe(feed);
    expect((await call('GET', feed)).statusCode).toBe(404);
    expect((await call('GET', next)).statusCode).toBe(200);
    const revoked = await call('DELETE', '/technicians/me/calendar-feed', tech1.token);
    expect(revoked.json()).toEqual({ active: false, created_at: null });
    expect((await call('GET', next)).statusCode).toBe(404);
    expect((await call('GET', '/technicians/me/calendar-feed', tech1.token)).json()).toEqual({
      active: false,
      created_at: null,
    });
  });

  it('a rotation retried with its Idempotency-Key answers the same URL; the key for another technician is refused', async () => {
    const key = { 'idempotency-key': `rotate-${randomBytes(6).toString('hex')}` };
    const first = await call('POST', '/technicians/me/calendar-feed', tech2.token, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await call('POST', '/technicians/me/calendar-feed', tech2.token, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // Not rotated a second time: the first answer's URL is the live one.
    expect((await call('GET', pathOf(first.json().url))).statusCode).toBe(200);
    // The stored answer holds the URL sealed, never the token in the clear.
    const token = pathOf(first.json().url).split('/').pop()!.slice(0, -4);
    const kept = await kit.t.db.query<{ response: unknown }>(
      "SELECT response FROM idempotency_keys WHERE route = 'calendar-feed:rotate'",
    );
    expect(kept.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(kept.rows)).not.toContain(token);
    const other = await call('POST', `/technicians/${tech1.principal.userId}/calendar-feed`, a.token, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    // A new action, a new key: a new URL, and the first one stops.
    const next = await call('POST', '/technicians/me/calendar-feed', tech2.token, { 'idempotency-key': 'another' });
    expect(next.json().url).not.toBe(first.json().url);
    expect((await call('GET', pathOf(first.json().url))).statusCode).toBe(404);
  });

  it('two presses racing under one key rotate once: both answer the URL that opens the feed', async () => {
    const key = { 'idempotency-key': `race-${randomBytes(6).toString('hex')}` };
    const [x, y] = await Promise.all([
      call('POST', '/technicians/me/calendar-feed', tech2.token, key),
      call('POST', '/technicians/me/calendar-feed', tech2.token, key),
    ]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    expect(y.json().url).toBe(x.json().url);
    expect((await call('GET', pathOf(x.json().url))).statusCode).toBe(200);
  });
});
