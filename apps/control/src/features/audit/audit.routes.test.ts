/** The audit log: owners read their own tenant's entries, filtered; nobody can change or delete one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

describe('audit log', () => {
  it("records a plan change with who, what and from where, and shows it only to that tenant's owner", async () => {
    const a = await kit.tenant('audit-a', 'free');
    const b = await kit.tenant('audit-b', 'free');
    await kit.app.inject({
      method: 'PUT',
      url: `/api/tenants/${a.id}/plan`,
      headers: { authorization: `Bearer ${a.token}` },
      payload: { plan: 'starter' },
      remoteAddress: '203.0.113.9',
    });
    const mine = await kit.app.inject({
      url: '/api/audit?action=plan.change',
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().items).toEqual([
      expect.objectContaining({
        action: 'plan.change',
        actor: { kind: 'user', id: a.owner.userId, name: a.owner.email },
        ip: '203.0.113.9',
        detail: { from: 'free', to: 'starter' },
      }),
    ]);
    const theirs = await kit.app.inject({ url: '/api/audit', headers: { authorization: `Bearer ${b.token}` } });
    expect(theirs.json().total).toBe(0);
    const office = await kit.member(a.id, 'office');
    expect(
      (await kit.app.inject({ url: '/api/audit', headers: { authorization: `Bearer ${office.token}` } })).statusCode,
    ).toBe(403);
  });

  it('refuses to change or delete an entry, even for the owning database role', async () => {
    await expect(kit.t.db.query(`UPDATE audit_log SET action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(kit.t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });

  it('refuses a bad filter with the field and rule named', async () => {
    const a = await kit.tenant('audit-c');
    const r = await kit.app.inject({
      url: '/api/audit?from=yesterday',
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors[0]).toMatchObject({ field: 'from', rule: 'format' });
  });

  it('filters by person, action and dates, pages, names people, and lists the actions there are', async () => {
    const a = await kit.tenant('audit-filter', 'free');
    const ada = await kit.member(a.id, 'owner', 'ada@audit-filter.test');
    const put = (token: string, plan: string) =>
      kit.app.inject({
        method: 'PUT',
        url: `/api/tenants/${a.id}/plan`,
        headers: { authorization: `Bearer ${token}` },
        payload: { plan },
      });
    await put(a.token, 'starter');
    await put(ada.token, 'professional');
    await put(ada.token, 'starter');
    const get = (q: string) =>
      kit.app.inject({ url: `/api/audit?${q}`, headers: { authorization: `Bearer ${a.token}` } });
    const byAda = (await get(`actor=${ada.principal.userId}&action=plan.change`)).json();
    expect(byAda.total).toBe(2);
    expect(byAda.items[0].actor).toEqual({ kind: 'user', id: ada.principal.userId, name: 'ada@audit-filter.test' });
    const paged = (await get('action=plan.change&page=2&page_size=2')).json();
    expect(paged).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(paged.items).toHaveLength(1);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await get(`from=${encodeURIComponent(future)}`)).json().total).toBe(0);
    expect((await get(`to=${encodeURIComponent(future)}&action=plan.change`)).json().total).toBe(3);
    const actions = await kit.app.inject({
      url: '/api/audit/actions',
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(actions.json().items).toContain('plan.change');
    const other = await kit.tenant('audit-filter-b');
    const theirs = await kit.app.inject({
      url: '/api/audit/actions',
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(theirs.json().items).not.toContain('plan.change');
    const admin = await kit.member(a.id, 'admin');
    expect(
      (await kit.app.inject({ url: '/api/audit/actions', headers: { authorization: `Bearer ${admin.token}` } }))
        .statusCode,
    ).toBe(403);
  });
});
