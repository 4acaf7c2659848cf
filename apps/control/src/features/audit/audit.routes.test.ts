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
        actor: { kind: 'user', id: a.owner.userId },
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
});
