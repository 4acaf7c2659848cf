/** The tenant's row as intake needs it (site name for `SITE:` tags, ERP database, helpdesk team). */
import type { Queryable } from '@platform/db';

export interface IntakeTenant {
  id: string;
  name: string;
  erp_db: string | null;
  site_name: string | null;
  helpdesk_team_id: number | null;
}

export async function intakeTenant(q: Queryable, tenantId: string): Promise<IntakeTenant | undefined> {
  const r = await q.query<IntakeTenant>(
    'SELECT id, name, erp_db, site_name, helpdesk_team_id FROM tenants WHERE id = $1',
    [tenantId],
  );
  return r.rows[0];
}
