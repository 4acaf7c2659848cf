/**
 * The first-run checklist on the office home (issue "the owner's console"): what a new company still has
 * to set up, each item ticked from what the tenant has actually done, never from a flag a person sets.
 * Reads through the owners of each fact (settings, plans, domains, the audit log); writes nothing.
 */
import { type Db, withTenant } from '@platform/db';
import { cheapestPlanWith } from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { DomainsService } from '../domains/domains.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantSettingsService } from '../tenants/tenant-settings.service.js';

export type ChecklistItemId = 'company' | 'branding' | 'price_grid' | 'technician' | 'domain' | 'integrations';

export interface ChecklistItem {
  id: ChecklistItemId;
  done: boolean;
  /** The office screen where it is done. */
  href: string;
  /** Set when the plan does not include it: the cheapest plan that does. */
  requires_plan?: string;
}

export interface SetupChecklist {
  items: ChecklistItem[];
  done: number;
  total: number;
}

/** Whether the tenant has connected any integration (the integrations feature answers; absent: unknown). */
export type IntegrationsProbe = (tenantId: string) => Promise<boolean>;

export class SetupChecklistService {
  constructor(
    private readonly db: Db,
    private readonly parts: {
      settings: Pick<TenantSettingsService, 'get'>;
      plans: Pick<PlanLimits, 'plan' | 'usage'>;
      domains: Pick<DomainsService, 'list'>;
      audit: Pick<AuditLog, 'list'>;
      integrations?: IntegrationsProbe;
      now: () => Date;
    },
  ) {}

  async get(tenantId: string): Promise<SetupChecklist> {
    const p = this.parts;
    const [settings, domains, integrations] = await Promise.all([
      p.settings.get(tenantId),
      p.domains.list(tenantId),
      p.integrations ? p.integrations(tenantId) : Promise.resolve(false),
    ]);
    const facts = await withTenant(this.db, tenantId, async (tx) => {
      const plan = await p.plans.plan(tx, tenantId);
      const usage = await p.plans.usage(tx, tenantId, p.now());
      const grids = await p.audit.list(tx, tenantId, { action: 'sales.price_grid.put', limit: 1, offset: 0 });
      const invites = await p.audit.list(tx, tenantId, { action: 'user.invite', limit: 50, offset: 0 });
      const technicianInvited = invites.rows.some((r) => (r.detail as { role?: string } | null)?.role === 'technician');
      return { plan, usage, gridSaved: grids.total > 0, technicianInvited };
    });
    const branding: ChecklistItem = {
      id: 'branding',
      done: Boolean(settings.logo_url && settings.primary_color),
      href: '/office/settings/company',
    };
    if (!facts.plan.features.custom_branding) branding.requires_plan = cheapestPlanWith('custom_branding');
    const items: ChecklistItem[] = [
      {
        id: 'company',
        done: Boolean(settings.company_name && (settings.phone || settings.email) && settings.address),
        href: '/office/settings/company',
      },
      branding,
      { id: 'price_grid', done: facts.gridSaved, href: '/office/settings/price-grids' },
      {
        id: 'technician',
        done: facts.usage.technicians > 0 || facts.technicianInvited,
        href: '/office/settings/team',
      },
      { id: 'domain', done: domains.some((d) => d.domain_type === 'custom'), href: '/office/settings/domains' },
      { id: 'integrations', done: integrations, href: '/office/settings/integrations' },
    ];
    const done = items.filter((i) => i.done).length;
    return { items, done, total: items.length };
  }
}
