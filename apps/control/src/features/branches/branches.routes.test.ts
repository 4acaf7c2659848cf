/**
 * Branches (multi_location): added, changed and removed by owners on a plan with them, a ZIP code in
 * one branch only, the default taking every other ZIP; the inbox filters by branch, names each lead's
 * branch, and shows a person limited to a branch only its leads. Another tenant sees none of it; a
 * plan without the feature refuses changes and keeps what exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
  const erp = k.a.erp.erp;
  for (const [name, zip] of [
    ['Denver lead', '80211'],
    ['Boulder lead', '80301'],
    ['Far lead', '99999'],
    ['No zip lead', false],
  ] as const)
    await erp.create('crm.lead', { name, contact_name: name, ...(zip ? { zip } : {}) });
}, 120_000);
afterAll(async () => k?.close());

const url = (id = k.a.id) => `/api/tenants/${id}/branches`;
const names = (r: { body: { items: { name: string }[] } }) => r.body.items.map((l) => l.name).sort();

describe('branches', () => {
  let denver: string;
  let boulder: string;

  it('adds branches (the first is the default), one ZIP code per branch, with field errors', async () => {
    const first = await k.call('POST', url(), k.a.owner, { name: 'Denver', zip_codes: ['80211', '80211'] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ name: 'Denver', is_default: true, zip_codes: ['80211'] });
    denver = first.body.id;
    const taken = await k.call('POST', url(), k.a.owner, { name: 'Boulder', zip_codes: ['80301', '80211'] });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0]).toMatchObject({ field: 'zip_codes' });
    expect(taken.body.errors[0].message).toContain('80211 is served by Denver');
    const bad = await k.call('POST', url(), k.a.owner, { name: '', zip_codes: ['not a zip!'], time_zone: 'Mars/Base' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'time_zone', 'zip_codes.0']);
    const second = await k.call('POST', url(), k.a.owner, {
      name: 'Boulder',
      zip_codes: ['80301'],
      time_zone: 'America/Denver',
    });
    expect(second.status).toBe(201);
    expect(second.body.is_default).toBe(false);
    boulder = second.body.id;
    expect((await k.call('GET', url(), k.a.office)).body.items.map((b: { name: string }) => b.name)).toEqual([
      'Denver',
      'Boulder',
    ]);
  });

  it('filters the inbox by branch: the default takes every other ZIP and none', async () => {
    const all = await k.call('GET', '/crm/leads', k.a.owner);
    expect(all.body.total).toBe(4);
    const far = all.body.items.find((l: { name: string }) => l.name === 'Far lead');
    expect(far.branch).toEqual({ id: denver, name: 'Denver' });
    expect(names(await k.call('GET', `/crm/leads?branch=${boulder}`, k.a.owner))).toEqual(['Boulder lead']);
    expect(names(await k.call('GET', `/crm/leads?branch=${denver}`, k.a.owner))).toEqual([
      'Denver lead',
      'Far lead',
      'No zip lead',
    ]);
  });

  it('filters the jobs (the dispatch board) by the ZIP of their address', async () => {
    for (const [name, zip] of [
      ['Dee', '80211'],
      ['Bo', '80301'],
    ] as const) {
      const r = await k.call(
        'POST',
        '/jobs',
        k.a.office,
        {
          customer: { name },
          address: { street: '1 Main St', city: 'Town', zip },
          scheduled_start: '2026-12-02T15:00:00Z',
          scheduled_end: '2026-12-02T16:00:00Z',
        },
        { 'idempotency-key': `branch-job-${name}` },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    const of = async (q: string) =>
      (await k.call('GET', `/jobs?date=2026-12-02${q}`, k.a.office)).body.items.map(
        (j: { customer: { name: string } }) => j.customer.name,
      );
    expect((await of('')).sort()).toEqual(['Bo', 'Dee']);
    expect(await of(`&branch=${boulder}`)).toEqual(['Bo']);
    expect(await of(`&branch=${denver}`)).toEqual(['Dee']);
  });

  it("shows a person limited to a branch only that branch's leads", async () => {
    const olga = await k.kit.member(k.a.id, 'office');
    const put = await k.call('PUT', `${url()}/${boulder}`, k.a.owner, {
      name: 'Boulder',
      zip_codes: ['80301'],
      member_ids: [olga.principal.userId],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.member_ids).toEqual([olga.principal.userId]);
    expect(names(await k.call('GET', '/crm/leads', olga.token))).toEqual(['Boulder lead']);
    expect((await k.call('GET', `/crm/leads?branch=${denver}`, olga.token)).status).toBe(404);
    expect((await k.call('GET', '/crm/leads', k.a.office)).body.total).toBe(4); // not limited
  });

  it('keeps the default while others exist, and moves it on request', async () => {
    const refused = await k.call('DELETE', `${url()}/${denver}`, k.a.owner);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('BRANCH_IS_DEFAULT');
    const moved = await k.call('PUT', `${url()}/${boulder}`, k.a.owner, {
      name: 'Boulder',
      zip_codes: ['80301'],
      is_default: true,
    });
    expect(moved.body.is_default).toBe(true);
    expect((await k.call('DELETE', `${url()}/${denver}`, k.a.owner)).status).toBe(204);
    const left = await k.call('GET', url(), k.a.owner);
    expect(left.body.items).toHaveLength(1);
    expect(left.body.items[0]).toMatchObject({ name: 'Boulder', is_default: true });
  });

  it("is the tenant's own: another tenant and office staff cannot change it", async () => {
    expect((await k.call('GET', url(), k.b.owner)).status).toBe(404);
    expect((await k.call('POST', url(), k.b.owner, { name: 'Theirs', zip_codes: [] })).status).toBe(404);
    expect((await k.call('PUT', `${url()}/${boulder}`, k.b.owner, { name: 'X', zip_codes: [] })).status).toBe(404);
    expect((await k.call('POST', url(), k.a.office, { name: 'Mine', zip_codes: [] })).status).toBe(403);
    expect((await k.call('GET', `/crm/leads?branch=${boulder}`, k.b.owner)).status).toBe(404);
  });

  it('refuses changes on a plan without multi_location, naming Professional, and keeps what exists', async () => {
    await k.kit.t.db.query(`UPDATE tenants SET plan = 'starter' WHERE id = $1`, [k.a.id]);
    const r = await k.call('POST', url(), k.a.owner, { name: 'Golden', zip_codes: ['80401'] });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: 'professional' });
    expect((await k.call('GET', url(), k.a.owner)).body.items).toHaveLength(1);
    expect(names(await k.call('GET', `/crm/leads?branch=${boulder}`, k.a.owner))).toHaveLength(4);
    await k.kit.t.db.query(`UPDATE tenants SET plan = 'professional' WHERE id = $1`, [k.a.id]);
  });
});
