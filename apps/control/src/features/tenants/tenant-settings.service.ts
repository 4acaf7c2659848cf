/**
 * A tenant's settings as the spec lists them (branding, contact, social, SEO, features), read by
 * any member and changed by owners and admins inside the tenant's scope (withTenant: RLS). Setting a
 * logo, favicon or colour needs the plan's `custom_branding`; clearing one never does (a downgrade
 * keeps what was set and blocks only new branding).
 */
import {
  BRANDING_FIELDS,
  COMPANY_SETTINGS_FIELDS,
  type CompanySettings,
  DEFAULT_CURRENCY,
  DEFAULT_TIME_ZONE,
} from '@platform/contracts/branding.js';
import { type Db, withTenant } from '@platform/db';
import { getTenantSettings, type TenantSettings, upsertTenantSettings } from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';

export const SETTINGS_FIELDS = COMPANY_SETTINGS_FIELDS;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];
export type SettingsView = CompanySettings;
export type SettingsChange = Partial<SettingsView>;

const BRANDING: readonly SettingsField[] = BRANDING_FIELDS;

/** What a tenant without a row sees: the columns' defaults. */
const DEFAULTS: SettingsView = {
  ...(Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, null])) as unknown as SettingsView),
  time_zone: DEFAULT_TIME_ZONE,
  currency: DEFAULT_CURRENCY,
  helpdesk_enabled: true,
  portal_enabled: true,
};

const view = (s: TenantSettings | undefined): SettingsView =>
  Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, s?.[f] ?? DEFAULTS[f]])) as unknown as SettingsView;

export class TenantSettingsService {
  constructor(
    private readonly db: Db,
    private readonly plans: Pick<PlanLimits, 'assertFeature'>,
    private readonly audit: AuditLog,
  ) {}

  get(tenantId: string): Promise<SettingsView> {
    return withTenant(this.db, tenantId, async (tx) => view(await getTenantSettings(tx, tenantId)));
  }

  async update(tenantId: string, change: SettingsChange, by: { userId: string; ip?: string }): Promise<SettingsView> {
    return withTenant(this.db, tenantId, async (tx) => {
      if (BRANDING.some((f) => change[f] !== undefined && change[f] !== null))
        await this.plans.assertFeature(tx, tenantId, 'custom_branding');
      await upsertTenantSettings(tx, tenantId, change);
      await this.audit.record(tx, {
        tenantId,
        actor: { kind: 'user', id: by.userId },
        action: 'tenant.settings.update',
        target: { type: 'tenant', id: tenantId },
        ...(by.ip ? { ip: by.ip } : {}),
        detail: { fields: Object.keys(change).sort() },
      });
      return view(await getTenantSettings(tx, tenantId));
    });
  }
}
