/**
 * Where a plan's price would be charged. No payment is taken for the plan today (the plan screen and
 * docs/control-plane.md say so): a change of plan changes limits and features at once, and this port
 * is told after the change is committed, so a billing provider's adapter (a subscription started,
 * changed or ended, prorated) can be added without touching the plan feature. The only driver today
 * logs the change.
 */
import type { PlanId } from '@platform/tenancy';

export interface PlanChange {
  tenantId: string;
  from: PlanId;
  to: PlanId;
  at: Date;
}

export interface BillingPort {
  /** Told once a plan change has been committed; an adapter's failure never undoes the change. */
  planChanged(change: PlanChange): Promise<void>;
}

/** The log driver: takes no payment, writes one line per change. */
export function noChargeBilling(log: (fields: Record<string, unknown>, msg: string) => void = () => {}): BillingPort {
  return {
    async planChanged(c) {
      log(
        { tenant_id: c.tenantId, from: c.from, to: c.to, at: c.at.toISOString() },
        'plan changed: no payment is taken (billing port: no-charge driver)',
      );
    },
  };
}
