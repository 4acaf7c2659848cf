/**
 * Managing a company's members as an owner or admin notices it: the list, role changes that take
 * effect at once (technician seats of the plan counted), one owner always kept, removal that signs
 * the person out of this company; and nobody of another company reaches any of it (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';
import { get, login, PASSWORD, post } from './accounts.fixture.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

const patch = (tenantId: string, userId: string, token: string, role: string) =>
  kit.app.inject({
    method: 'PATCH',
    url: `/api/tenants/${tenantId}/users/${userId}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { role },
  });
const remove = (tenantId: string, userId: string, token: string) =>
  kit.app.inject({
    method: 'DELETE',
    url: `/api/tenants/${tenantId}/users/${userId}`,
    headers: { authorization: `Bearer ${token}` },
  });

describe('members', () => {
  it('lists the members with their roles, paginated', async () => {
    const t = await kit.tenant('team-list', 'starter');
    await kit.member(t.id, 'office', 'olga@team-list.test');
    await kit.member(t.id, 'technician', 'theo@team-list.test');
    const r = await get(kit, `/api/tenants/${t.id}/users?page_size=2`, t.token);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(r.json().items.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual([
      'owner@team-list.test:owner',
      'olga@team-list.test:office',
    ]);
    const tech = await kit.member(t.id, 'technician');
    expect((await get(kit, `/api/tenants/${t.id}/users`, tech.token)).statusCode).toBe(403);
  });

  it('shows the office whom it can dispatch to: the technicians, to no one else, and not across companies', async () => {
    const t = await kit.tenant('team-techs', 'starter');
    const office = await kit.member(t.id, 'office', 'olga@team-techs.test');
    const tech = await kit.member(t.id, 'technician', 'theo@team-techs.test');
    const r = await get(kit, `/api/tenants/${t.id}/technicians`, office.token);
    expect(r.statusCode).toBe(200);
    expect(r.json().items.map((m: { id: string }) => m.id)).toEqual([tech.principal.userId]);
    expect((await get(kit, `/api/tenants/${t.id}/technicians`, tech.token)).statusCode).toBe(403);
    const other = await kit.tenant('team-techs-other', 'starter');
    expect((await get(kit, `/api/tenants/${other.id}/technicians`, office.token)).statusCode).toBe(404);
  });

  it("changes a role at once: the member's signed-in session gets the new role on its next call", async () => {
    const t = await kit.tenant('team-role', 'starter');
    const m = await kit.member(t.id, 'office', 'otto@team-role.test');
    const session = (await login(kit, { email: 'otto@team-role.test', password: PASSWORD })).json();
    const r = await patch(t.id, m.principal.userId, t.token, 'admin');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id: m.principal.userId, role: 'admin' });
    expect((await get(kit, '/auth/me', session.access_token)).json().role).toBe('admin');
    const audit = await get(kit, '/api/audit?action=user.role_change', t.token);
    expect(audit.json().items[0]).toMatchObject({ detail: { from: 'office', to: 'admin' } });
  });

  it('counts technician seats when someone becomes a technician (Free: one)', async () => {
    const t = await kit.tenant('team-seats');
    await kit.member(t.id, 'technician');
    const o = await kit.t.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'owner@team-seats.test'`);
    // The only other seat is the owner's; the owner cannot become a technician (last owner) anyway:
    expect((await patch(t.id, o.rows[0]!.id, t.token, 'technician')).json().code).toBe('LAST_OWNER');
    const up = await kit.tenant('team-seats-2', 'starter');
    for (let i = 0; i < 3; i++) await kit.member(up.id, 'technician');
    const office = await kit.member(up.id, 'office');
    const r = await patch(up.id, office.principal.userId, up.token, 'technician');
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: 'technicians' });
  });

  it('always keeps one owner, and lets only owners make or unmake owners', async () => {
    const t = await kit.tenant('team-owner', 'starter');
    const admin = await kit.member(t.id, 'admin');
    const r = await patch(t.id, t.owner.userId, t.token, 'admin');
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe('LAST_OWNER');
    expect((await remove(t.id, t.owner.userId, t.token)).json().code).toBe('LAST_OWNER');
    expect((await patch(t.id, admin.principal.userId, admin.token, 'owner')).json().code).toBe('ROLE_FORBIDDEN');
    expect((await patch(t.id, t.owner.userId, admin.token, 'office')).json().code).toBe('ROLE_FORBIDDEN');
    expect((await patch(t.id, admin.principal.userId, t.token, 'owner')).statusCode).toBe(200);
    // Two owners now: one may step down.
    expect((await patch(t.id, t.owner.userId, t.token, 'admin')).statusCode).toBe(200);
  });

  it('removes a member: signed out of this company at once, account and other companies kept', async () => {
    const t = await kit.tenant('team-remove', 'starter');
    const other = await kit.tenant('team-remove-other');
    const email = 'leaver@team-remove.test';
    const m = await kit.member(t.id, 'office', email);
    await kit.member(other.id, 'office', email);
    const here = (await login(kit, { email, password: PASSWORD, tenant: 'team-remove' })).json();
    const there = (await login(kit, { email, password: PASSWORD, tenant: 'team-remove-other' })).json();
    expect((await remove(t.id, m.principal.userId, t.token)).statusCode).toBe(204);
    expect((await get(kit, '/auth/me', here.access_token)).statusCode).toBe(401);
    expect((await post(kit, '/auth/refresh', { refresh_token: here.refresh_token })).statusCode).toBe(401);
    expect((await get(kit, '/auth/me', there.access_token)).statusCode).toBe(200);
    const list = await get(kit, `/api/tenants/${t.id}/users`, t.token);
    expect(list.json().items.map((u: { email: string }) => u.email)).not.toContain(email);
    expect((await remove(t.id, m.principal.userId, t.token)).statusCode).toBe(404);
  });
});

describe("another company's owner", () => {
  it('gets 404 for every members and invitations endpoint of company A, and changes nothing', async () => {
    const a = await kit.tenant('matrix-a', 'starter');
    const b = await kit.tenant('matrix-b', 'starter');
    const aOffice = await kit.member(a.id, 'office');
    const calls = [
      () => get(kit, `/api/tenants/${a.id}/users`, b.token),
      () =>
        post(kit, `/api/tenants/${a.id}/invitations`, { email: 'x@matrix.test', role: 'office' }, { token: b.token }),
      () => patch(a.id, aOffice.principal.userId, b.token, 'admin'),
      () => remove(a.id, aOffice.principal.userId, b.token),
      // B's own tenant id with A's user id: not one of B's members.
      () => patch(b.id, aOffice.principal.userId, b.token, 'admin'),
      () => remove(b.id, aOffice.principal.userId, b.token),
      () => patch(b.id, a.owner.userId, b.token, 'office'),
    ];
    for (const call of calls) {
      const r = await call();
      expect(r.statusCode, r.body).toBe(404);
      expect(r.json().code).toBe('NOT_FOUND');
      expect(r.body).not.toContain('matrix-a');
    }
    const list = await get(kit, `/api/tenants/${a.id}/users`, a.token);
    expect(list.json().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: aOffice.principal.userId, role: 'office' })]),
    );
    expect((await kit.t.db.query(`SELECT 1 FROM invitations WHERE email = 'x@matrix.test'`)).rowCount).toBe(0);
  });
});
