/**
 * The one module that reads and writes `tenant_settings` (owned by packages/tenancy): branding,
 * contact, social, SEO and feature switches edited through the control plane, and the
 * `email_settings` JSON column (from name, reply-to, domain) that the email package manages.
 */
import type { Queryable } from '@platform/db';

import { findDefaultTenant, findTenantByIdOrSlug, listTenants } from './tenants.repo.js';

export interface SendingDomain {
  name: string;
  status: 'pending' | 'verified' | 'failed';
  dkim_selector: string;
  /** The TXT value of `<selector>._domainkey.<name>` (our DKIM public key). */
  dkim_record: string;
  /** The DKIM private key, sealed with the platform's secret box. */
  dkim_private_key_sealed: string;
  added_at: string;
  checked_at?: string;
  verified_at?: string;
  /** The primary provider's record of the domain, when registered there. */
  provider?: {
    name: string;
    id: string;
    dkim_host: string;
    dkim_value: string;
    return_path_domain: string;
    return_path_cname: string;
    verified?: boolean;
  };
  /** Per record: found or what was missing, from the last check. */
  last_check?: Record<string, string>;
}

export interface EmailSettings {
  from_name?: string;
  /** Local part of the From address on the tenant's domain (default `no-reply`). */
  from_local_part?: string;
  reply_to?: string;
  domain?: SendingDomain;
}

export interface TenantSettings {
  tenant_id: string;
  company_name: string | null;
  logo_url: string | null;
  favicon_url: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  // Always read from the row; optional so that callers building one by hand (templates) may omit them.
  social_facebook?: string | null;
  social_instagram?: string | null;
  meta_title?: string | null;
  meta_description?: string | null;
  /** IANA zone and ISO 4217 code (migration 0260: NOT NULL with defaults). */
  time_zone?: string;
  currency?: string;
  helpdesk_enabled: boolean;
  portal_enabled: boolean;
  email_settings: EmailSettings;
}

export interface TenantRef {
  id: string;
  slug: string;
  name: string;
}

const ref = (t: TenantRef | undefined): TenantRef | undefined =>
  t ? { id: t.id, slug: t.slug, name: t.name } : undefined;

export async function findTenant(db: Queryable, idOrSlug: string): Promise<TenantRef | undefined> {
  return ref(await findTenantByIdOrSlug(db, idOrSlug));
}

/** The default tenant, else the oldest one. */
export async function defaultTenant(db: Queryable): Promise<TenantRef | undefined> {
  return ref((await findDefaultTenant(db)) ?? (await listTenants(db))[0]);
}

export async function getTenantSettings(
  db: Queryable,
  tenantId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<TenantSettings | undefined> {
  const r = await db.query<TenantSettings>(
    `SELECT * FROM tenant_settings WHERE tenant_id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
    [tenantId],
  );
  return r.rows[0];
}

export type BrandingInput = Partial<Omit<TenantSettings, 'tenant_id' | 'email_settings'>>;

/** Creates the row when missing and sets the given branding/contact/feature fields. */
export async function upsertTenantSettings(db: Queryable, tenantId: string, fields: BrandingInput): Promise<void> {
  const cols = Object.keys(fields).filter((k) => /^[a-z_]+$/.test(k));
  const values = cols.map((c) => (fields as Record<string, unknown>)[c]);
  const set = cols.map((c, i) => `${c} = $${i + 2}`).join(', ');
  await db.query(
    `INSERT INTO tenant_settings (tenant_id${cols.map((c) => `, ${c}`).join('')}) VALUES ($1${cols.map((_, i) => `, $${i + 2}`).join('')})
     ON CONFLICT (tenant_id) DO ${cols.length ? `UPDATE SET ${set}, updated_at = now()` : 'NOTHING'}`,
    [tenantId, ...values],
  );
}

export async function setEmailSettings(db: Queryable, tenantId: string, settings: EmailSettings): Promise<void> {
  await db.query(
    `INSERT INTO tenant_settings (tenant_id, email_settings) VALUES ($1, $2::jsonb)
     ON CONFLICT (tenant_id) DO UPDATE SET email_settings = EXCLUDED.email_settings, updated_at = now()`,
    [tenantId, JSON.stringify(settings)],
  );
}

/** Sending domains registered by other tenants (each one counts against the primary's plan). */
export async function countOtherDomains(db: Queryable, tenantId: string): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM tenant_settings WHERE email_settings #>> '{domain,name}' IS NOT NULL AND tenant_id <> $1`,
    [tenantId],
  );
  return r.rows[0]?.n ?? 0;
}

export async function domainOwner(db: Queryable, domain: string): Promise<string | undefined> {
  const r = await db.query<{ tenant_id: string }>(
    `SELECT tenant_id FROM tenant_settings WHERE lower(email_settings #>> '{domain,name}') = lower($1)`,
    [domain],
  );
  return r.rows[0]?.tenant_id;
}

/** portal_enabled of the tenant's settings (true without a settings row: the column's default). */
export async function portalEnabled(db: Queryable, tenantId: string): Promise<boolean> {
  const r = await db.query<{ portal_enabled: boolean }>(
    'SELECT portal_enabled FROM tenant_settings WHERE tenant_id = $1',
    [tenantId],
  );
  return r.rows[0]?.portal_enabled ?? true;
}

/** What a customer-facing page shows of the tenant: settings' branding, else the tenant's name. */
export interface TenantBranding {
  company_name: string;
  logo_url: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  phone: string | null;
  email: string | null;
}

export async function tenantBranding(db: Queryable, tenantId: string): Promise<TenantBranding> {
  const r = await db.query<TenantBranding & { tenant_name: string }>(
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

/** Every tenant with a sending domain, and the domain's last known status (the scheduled recheck). */
export async function sendingDomainStates(db: Queryable): Promise<{ tenant_id: string; status: string }[]> {
  const r = await db.query<{ tenant_id: string; status: string }>(
    `SELECT tenant_id, email_settings #>> '{domain,status}' AS status FROM tenant_settings
      WHERE email_settings #>> '{domain,name}' IS NOT NULL`,
  );
  return r.rows;
}
