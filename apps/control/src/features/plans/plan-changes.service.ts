/**
 * The owner's change of plan: checked against the team (PlanLimits.changeFitting), audited in the same
 * transaction, then told to the billing port once committed.
 */
import { type Db, withTenant } from '@platform/db';
import type { PlanId } from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { BillingPort } from './billing.port.js';
import type { PlanLimits } from './plan-limits.service.js';

export class PlanChanges {
  constructor(
    private readonly db: Db,
    private readonly plans: Pick<PlanLimits, 'changeFitting'>,
    private readonly audit: AuditLog,
    private readonly billing: BillingPort,
    private readonly now: () => Date,
  ) {}

  async change(p: Principal, to: PlanId, ip: string | undefined): Promise<void> {
    const { from } = await withTenant(this.db, p.tenantId, async (tx) => {
      const changed = await this.plans.changeFitting(tx, p.tenantId, to);
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action: 'plan.change',
        target: { type: 'tenant', id: p.tenantId },
        ...(ip ? { ip } : {}),
        detail: { from: changed.from, to },
      });
      return changed;
    });
    if (from !== to) await this.billing.planChanged({ tenantId: p.tenantId, from, to, at: this.now() });
  }
}
