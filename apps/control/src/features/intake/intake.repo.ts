/** The tenant's row as intake needs it (site name for `SITE:` tags, ERP database, helpdesk team): tenancy's read. */
import type { Queryable } from '@platform/db';
import { getTenantRecord } from '@platform/tenancy';

export interface IntakeTenant {
  id: string;
  name: string;
  erp_db: string | null;
  site_name: string | null;
  helpdesk_team_id: number | null;
}

export async function intakeTenant(q: Queryable, tenantId: string): Promise<IntakeTenant | undefined> {
  const t = await getTenantRecord(q, tenantId);
  return (
    t && { id: t.id, name: t.name, erp_db: t.erp_db, site_name: t.site_name, helpdesk_team_id: t.helpdesk_team_id }
  );
}
