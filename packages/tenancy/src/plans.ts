/**
 * The subscription plans exactly as the spec's tables list them: prices, limits (null = unlimited)
 * and feature flags. The one place that knows them; the control plane's PlanLimits enforces them,
 * and other hosts (the ERP host's REST API) ask `assertTenantFeature`.
 */
import type { Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';

export const PLAN_IDS = ['free', 'starter', 'professional', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const FEATURES = [
  'pdf_reports',
  'custom_branding',
  'api_access',
  'advanced_reports',
  'multi_location',
  'recurring_jobs',
  'inventory',
] as const;
export type Feature = (typeof FEATURES)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** US dollars. */
  prices: { monthly: number; yearly: number };
  limits: { users: number | null; technicians: number | null; jobs_per_month: number | null };
  features: Record<Feature, boolean>;
}

const f = (on: Feature[]): Record<Feature, boolean> =>
  Object.fromEntries(FEATURES.map((x) => [x, on.includes(x)])) as Record<Feature, boolean>;

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    prices: { monthly: 0, yearly: 0 },
    limits: { users: 2, technicians: 1, jobs_per_month: 20 },
    features: f(['pdf_reports']),
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    prices: { monthly: 49, yearly: 470 },
    limits: { users: 5, technicians: 3, jobs_per_month: 100 },
    features: f(['pdf_reports', 'custom_branding', 'recurring_jobs']),
  },
  professional: {
    id: 'professional',
    name: 'Professional',
    prices: { monthly: 99, yearly: 950 },
    limits: { users: 15, technicians: 10, jobs_per_month: 500 },
    features: f([...FEATURES]), // every feature
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    prices: { monthly: 299, yearly: 2870 },
    limits: { users: null, technicians: null, jobs_per_month: null },
    features: f([...FEATURES]), // every feature
  },
};

/** The cheapest plan that has the feature (for PLAN_FEATURE_MISSING's `required_plan`). */
export function cheapestPlanWith(feature: Feature): PlanId {
  return PLAN_IDS.find((id) => PLANS[id].features[feature]) ?? 'enterprise';
}

/** The cheapest plan whose limit is above `count` (for PLAN_LIMIT_REACHED's `upgrade_to`). */
export function cheapestPlanAbove(limit: keyof Plan['limits'], count: number): PlanId {
  return PLAN_IDS.find((id) => (PLANS[id].limits[limit] ?? Infinity) > count) ?? 'enterprise';
}

/** PLAN_FEATURE_MISSING for a plan without the feature, naming the cheapest plan that has it. */
export function featureMissing(plan: Plan, feature: Feature): AppError {
  return new AppError('PLAN_FEATURE_MISSING', `The ${plan.name} plan does not include ${feature.replace(/_/g, ' ')}.`, {
    details: { feature, plan: plan.id, required_plan: cheapestPlanWith(feature) },
  });
}

/**
 * For hosts outside the control plane (the ERP host's REST API): refuses when the tenant's plan
 * lacks the feature. Read on every call, so a downgrade applies from the next request on.
 */
export async function assertTenantFeature(q: Queryable, tenantId: string, feature: Feature): Promise<void> {
  const r = await q.query<{ plan: PlanId }>('SELECT plan FROM tenants WHERE id = $1::uuid', [tenantId]);
  const plan = PLANS[r.rows[0]?.plan ?? 'free'];
  if (!plan.features[feature]) throw featureMissing(plan, feature);
}
