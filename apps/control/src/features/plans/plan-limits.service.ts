/**
 * Enforcement of the plan, in the backend, inside the caller's transaction (so the check and the
 * addition it guards commit together). A downgrade keeps everything that exists and blocks only new
 * additions past the new limit (docs/control-plane.md, "Plans").
 */
import type { Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';
import {
  cheapestPlanAbove,
  type Feature,
  featureMissing,
  getTenantRecord,
  type Plan,
  type PlanId,
  PLANS,
  setTenantPlan,
} from '@platform/tenancy';

import { memberCounts } from '../accounts/team.repo.js';
import type { Role } from '../auth/principal.js';
import { jobsInMonth, takeJob } from './plan-limits.repo.js';

export interface PlanUsage {
  users: number;
  technicians: number;
  jobs_this_month: number;
}

const monthOf = (at: Date) => `${at.toISOString().slice(0, 7)}-01`;

export class PlanLimits {
  async plan(q: Queryable, tenantId: string): Promise<Plan> {
    const id = (await getTenantRecord(q, tenantId))?.plan;
    if (!id) throw new AppError('NOT_FOUND', 'No such tenant.');
    return PLANS[id as PlanId];
  }

  async assertFeature(q: Queryable, tenantId: string, feature: Feature): Promise<void> {
    const plan = await this.plan(q, tenantId);
    if (plan.features[feature]) return;
    throw featureMissing(plan, feature);
  }

  /** Before adding a member (or changing a member's role to `role`): users and technicians limits. */
  async assertCanAddMember(
    q: Queryable,
    tenantId: string,
    role: Role,
    opts: { existing?: boolean } = {},
  ): Promise<void> {
    const plan = await this.plan(q, tenantId);
    const n = await memberCounts(q, tenantId);
    const users = opts.existing ? n.users - 1 : n.users;
    // A technician past both limits is told of the technicians' one: it is the one the invitation is about.
    if (role === 'technician' && plan.limits.technicians !== null && n.technicians >= plan.limits.technicians)
      throw limitReached(plan, 'technicians', n.technicians);
    if (plan.limits.users !== null && users >= plan.limits.users) throw limitReached(plan, 'users', n.users);
  }

  /** Counts one new job of `at`'s UTC month, or refuses it when the month is full. */
  async reserveJob(q: Queryable, tenantId: string, at: Date): Promise<void> {
    const plan = await this.plan(q, tenantId);
    if (await takeJob(q, tenantId, monthOf(at), plan.limits.jobs_per_month)) return;
    throw limitReached(plan, 'jobs_per_month', await jobsInMonth(q, tenantId, monthOf(at)));
  }

  async usage(q: Queryable, tenantId: string, at: Date): Promise<PlanUsage> {
    const n = await memberCounts(q, tenantId);
    return { ...n, jobs_this_month: await jobsInMonth(q, tenantId, monthOf(at)) };
  }

  /**
   * The owner's change of plan: immediate when the tenant's members fit the plan; a downgrade they do
   * not fit is refused (PLAN_DOWNGRADE_BLOCKED) with how many users and technicians to remove first.
   * Jobs this month never block it: they cannot be removed, and the new limit only stops new ones.
   */
  async changeFitting(q: Queryable, tenantId: string, to: PlanId): Promise<{ from: PlanId }> {
    const from = (await this.plan(q, tenantId)).id;
    const target = PLANS[to];
    const n = await memberCounts(q, tenantId);
    const remove = {
      users: excess(n.users, target.limits.users),
      technicians: excess(n.technicians, target.limits.technicians),
    };
    if (remove.users || remove.technicians) {
      const what = [plural(remove.users, 'user'), plural(remove.technicians, 'technician')].filter(Boolean);
      throw new AppError(
        'PLAN_DOWNGRADE_BLOCKED',
        `Your team does not fit the ${target.name} plan: remove ${what.join(' and ')} first.`,
        {
          details: {
            plan: to,
            remove,
            usage: n,
            limits: { users: target.limits.users, technicians: target.limits.technicians },
          },
        },
      );
    }
    await this.change(q, tenantId, to);
    return { from };
  }

  /** Immediate, whatever the usage (the operator's CLI); returns false when the tenant does not exist. */
  async change(q: Queryable, tenantId: string, plan: PlanId): Promise<boolean> {
    return setTenantPlan(q, tenantId, plan);
  }
}

const excess = (used: number, allowed: number | null) => (allowed === null ? 0 : Math.max(0, used - allowed));
const plural = (n: number, one: string) => (n ? `${n} ${one}${n === 1 ? '' : 's'}` : '');

function limitReached(plan: Plan, limit: keyof Plan['limits'], usage: number): AppError {
  const one = plan.limits[limit] === 1;
  const label = {
    users: one ? 'user' : 'users',
    technicians: one ? 'technician' : 'technicians',
    jobs_per_month: one ? 'job this month' : 'jobs this month',
  }[limit];
  return new AppError('PLAN_LIMIT_REACHED', `The ${plan.name} plan allows ${plan.limits[limit]} ${label}.`, {
    details: { limit, plan: plan.id, allowed: plan.limits[limit], usage, upgrade_to: cheapestPlanAbove(limit, usage) },
  });
}
