/**
 * Company settings added for the owner's console: time zone and currency (checked with Intl, with
 * defaults before any is set) and a primary colour that white text must read on (WCAG AA).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
let a: { id: string; token: string };
let b: { id: string; token: string };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const put = (t: { token: string }, payload: object, id: string) =>
  kit.app.inject({ method: 'PUT', url: `/api/tenants/${id}/settings`, headers: bearer(t.token), payload });

beforeAll(async () => {
  kit = await startControlKit();
  a = await kit.tenant('alpha', 'starter');
  b = await kit.tenant('beta', 'free');
}, 60_000);
afterAll(async () => kit?.close());

describe('time zone and currency', () => {
  it('start as America/Denver and USD, and take an IANA zone and an ISO 4217 code', async () => {
    const before = await kit.app.inject({ url: `/api/tenants/${a.id}/settings`, headers: bearer(a.token) });
    expect(before.json()).toMatchObject({ time_zone: 'America/Denver', currency: 'USD' });
    const r = await put(a, { time_zone: 'Europe/Dublin', currency: 'EUR' }, a.id);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ time_zone: 'Europe/Dublin', currency: 'EUR' });
  });

  it('refuses an unknown zone or currency with 422 naming each field', async () => {
    const r = await put(a, { time_zone: 'Mars/Olympus_Mons', currency: 'XYZ' }, a.id);
    expect(r.statusCode).toBe(422);
    const fields = r.json().errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['time_zone', 'currency']));
    expect((await put(a, { currency: 'usd' }, a.id)).statusCode).toBe(422);
  });

  it("are not plan-gated, and another tenant's owner cannot change them (404)", async () => {
    expect((await put(b, { currency: 'CAD' }, b.id)).statusCode).toBe(200);
    const other = await put(b, { currency: 'GBP' }, a.id);
    expect(other.statusCode).toBe(404);
    const mine = await kit.app.inject({ url: `/api/tenants/${a.id}/settings`, headers: bearer(a.token) });
    expect(mine.json().currency).toBe('EUR');
  });
});

describe('brand colours', () => {
  it('refuses a primary colour white text cannot be read on, saying the ratio, and keeps the old one', async () => {
    expect((await put(a, { primary_color: '#1F4E79' }, a.id)).statusCode).toBe(200);
    const r = await put(a, { primary_color: '#FFD700' }, a.id);
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toEqual([
      expect.objectContaining({ field: 'primary_color', message: expect.stringMatching(/contrast 1\.\d:1.*4\.5:1/) }),
    ]);
    const s = await kit.app.inject({ url: `/api/tenants/${a.id}/settings`, headers: bearer(a.token) });
    expect(s.json().primary_color).toBe('#1F4E79');
  });

  it('accepts a light secondary colour (the page background, under dark text)', async () => {
    const r = await put(a, { secondary_color: '#F4F6F8' }, a.id);
    expect(r.statusCode).toBe(200);
  });
});
