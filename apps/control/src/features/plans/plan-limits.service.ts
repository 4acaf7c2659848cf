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
    if (plan.limits.users !== null && users >= plan.limits.users) throw limitReached(plan, 'users', n.users);
    if (role === 'technician' && plan.limits.technicians !== null && n.technicians >= plan.limits.technicians)
      throw limitReached(plan, 'technicians', n.technicians);
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

  /** Immediate; returns false when the tenant does not exist. */
  async change(q: Queryable, tenantId: string, plan: PlanId): Promise<boolean> {
    return setTenantPlan(q, tenantId, plan);
  }
}

function limitReached(plan: Plan, limit: keyof Plan['limits'], usage: number): AppError {
  const label = { users: 'users', technicians: 'technicians', jobs_per_month: 'jobs this month' }[limit];
  return new AppError('PLAN_LIMIT_REACHED', `The ${plan.name} plan allows ${plan.limits[limit]} ${label}.`, {
    details: { limit, plan: plan.id, allowed: plan.limits[limit], usage, upgrade_to: cheapestPlanAbove(limit, usage) },
  });
}
