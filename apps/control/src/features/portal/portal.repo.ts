/** The tenant's branding for the portal page (tenant_settings, read inside the tenant's scope). */
import type { Queryable } from '@platform/db';

export interface Branding {
  company_name: string;
  logo_url: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  phone: string | null;
  email: string | null;
}

export async function branding(q: Queryable, tenantId: string): Promise<Branding> {
  const r = await q.query<Branding & { tenant_name: string }>(
    `SELECT t.name AS tenant_name, s.company_name, s.logo_url, s.primary_color, s.secondary_color, s.phone, s.email
       FROM tenants t LEFT JOIN tenant_settings s ON s.tenant_id = t.id WHERE t.id = $1`,
    [tenantId],
  );
  const b = r.rows[0];
  return {
    company_name: b?.company_name ?? b?.tenant_name ?? '',
    logo_url: b?.logo_url ?? null,
    primary_color: b?.primary_color ?? null,
    secondary_color: b?.secondary_color ?? null,
    phone: b?.phone ?? null,
    email: b?.email ?? null,
  };
}
