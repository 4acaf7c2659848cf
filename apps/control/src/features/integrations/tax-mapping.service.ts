/**
 * The owner's console's tax mapping of the accounting connection (docs/integrations.md, "Tax
 * mapping"): the tenant's ERP sale taxes beside the provider's active tax rates, the automatic
 * choice by rate, and the owner's choices saved. Each change is audited with what it set.
 */
import type { TaxMappingView } from '@platform/contracts';
import type { Db } from '@platform/db';
import type { AccountingTaxMapping } from '@platform/integrations';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { TenantErps } from '../tenants/tenant-erps.js';

/** Who acts (the same shape as the integrations service's; not imported, to keep the two acyclic). */
interface Actor {
  principal: Principal;
  ip?: string;
}

export class ControlTaxMapping {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly mapping: Pick<AccountingTaxMapping, 'view' | 'save' | 'autoMap'>,
    private readonly audit: AuditLog,
  ) {}

  async view(tenantId: string): Promise<TaxMappingView> {
    return this.mapping.view(tenantId, await this.erps.forTenant(tenantId));
  }

  async save(a: Actor, taxTypes: Record<string, string>): Promise<TaxMappingView> {
    const tenantId = a.principal.tenantId;
    const out = await this.mapping.save(tenantId, await this.erps.forTenant(tenantId), taxTypes);
    await this.record(a, 'integrations.accounting.tax_mapping', { tax_types: taxTypes });
    return out;
  }

  async autoMap(a: Actor): Promise<TaxMappingView> {
    const tenantId = a.principal.tenantId;
    const out = await this.mapping.autoMap(tenantId, await this.erps.forTenant(tenantId));
    await this.record(a, 'integrations.accounting.tax_automap');
    return out;
  }

  private record(a: Actor, action: string, detail?: Record<string, unknown>): Promise<void> {
    return this.audit.recordUserAction(this.db, a.principal, {
      action,
      target: { type: 'integration', id: 'accounting' },
      ...(a.ip ? { ip: a.ip } : {}),
      ...(detail ? { detail } : {}),
    });
  }
}
