/**
 * The plan's limits, enforced in the backend: a Free tenant's 3rd user, 2nd technician and 21st job
 * of a month are refused with PLAN_LIMIT_REACHED; an upgrade lifts the limit at once; a downgrade
 * keeps what exists and blocks only new additions; features outside the plan are PLAN_FEATURE_MISSING.
 */
import { withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return e instanceof AppError ? `${e.code}:${String(e.details?.limit ?? e.details?.feature)}` : String(e);
  }
};

describe('plan limits', () => {
  it("refuses a Free tenant's 3rd user and 2nd technician, and an upgrade lifts it at once", async () => {
    const t = await kit.tenant('limits-users');
    expect(await codeOf(kit.member(t.id, 'technician'))).toBe('ok');
    expect(await codeOf(kit.member(t.id, 'office'))).toBe('PLAN_LIMIT_REACHED:users');
    const up = await kit.app.inject({
      method: 'PUT',
      url: `/api/tenants/${t.id}/plan`,
      headers: { authorization: `Bearer ${t.token}` },
      payload: { plan: 'starter' },
    });
    expect(up.statusCode).toBe(200);
    expect(up.json().limits.users).toBe(5);
    // Every plan is answered with its features, for the side-by-side comparison.
    expect(
      up.json().plans.map((p: { id: string; features: { api_access: boolean } }) => [p.id, p.features.api_access]),
    ).toEqual([
      ['free', false],
      ['starter', false],
      ['professional', true],
      ['enterprise', true],
    ]);
    // Starter: 5 users, 3 technicians. The 3rd user is now welcome; the 4th technician is not.
    expect(await codeOf(kit.member(t.id, 'technician'))).toBe('ok');
    expect(await codeOf(kit.member(t.id, 'technician'))).toBe('ok');
    expect(await codeOf(kit.member(t.id, 'technician'))).toBe('PLAN_LIMIT_REACHED:technicians');
  });

  it("refuses the 21st job of a Free tenant's month, not the next month's first, and counts them in usage", async () => {
    const t = await kit.tenant('limits-jobs');
    const june = new Date('2026-06-15T12:00:00Z');
    for (let i = 0; i < 20; i++) await withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.reserveJob(tx, t.id, june));
    expect(await codeOf(withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.reserveJob(tx, t.id, june)))).toBe(
      'PLAN_LIMIT_REACHED:jobs_per_month',
    );
    const july = new Date('2026-07-01T00:00:00Z');
    expect(await codeOf(withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.reserveJob(tx, t.id, july)))).toBe('ok');
    const usage = await withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.usage(tx, t.id, june));
    expect(usage).toEqual({ users: 1, technicians: 0, jobs_this_month: 20 });
  });

  it('keeps every member after a downgrade but refuses the next one', async () => {
    const t = await kit.tenant('limits-down', 'professional');
    for (let i = 0; i < 3; i++) await kit.member(t.id, 'office');
    await withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.change(tx, t.id, 'free'));
    const plan = await kit.app.inject({
      url: `/api/tenants/${t.id}/plan`,
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(plan.json()).toMatchObject({ plan: 'free', usage: { users: 4 } });
    expect(await codeOf(kit.member(t.id, 'office'))).toBe('PLAN_LIMIT_REACHED:users');
  });

  it('refuses the owner a downgrade the team does not fit, naming what to remove, and changes nothing', async () => {
    const t = await kit.tenant('limits-misfit', 'professional');
    for (let i = 0; i < 2; i++) await kit.member(t.id, 'office');
    for (let i = 0; i < 2; i++) await kit.member(t.id, 'technician');
    const put = (plan: string) =>
      kit.app.inject({
        method: 'PUT',
        url: `/api/tenants/${t.id}/plan`,
        headers: { authorization: `Bearer ${t.token}` },
        payload: { plan },
      });
    const refused = await put('free');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'PLAN_DOWNGRADE_BLOCKED',
      remove: { users: 3, technicians: 1 },
      usage: { users: 5, technicians: 2 },
    });
    expect(refused.json().detail).toBe('Your team does not fit the Free plan: remove 3 users and 1 technician first.');
    expect((await withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.plan(tx, t.id))).id).toBe('professional');
    const starter = await put('starter'); // 5 users and 2 technicians fit Starter
    expect(starter.statusCode).toBe(200);
    expect(starter.json()).toMatchObject({ plan: 'starter' });
  });

  it('names the cheapest plan with a missing feature', async () => {
    const t = await kit.tenant('limits-feature', 'starter');
    try {
      await withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.assertFeature(tx, t.id, 'api_access'));
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'PLAN_FEATURE_MISSING', details: { required_plan: 'professional' } });
    }
    await withTenant(kit.t.db, t.id, (tx) => kit.deps.plans.assertFeature(tx, t.id, 'recurring_jobs'));
  });
});
