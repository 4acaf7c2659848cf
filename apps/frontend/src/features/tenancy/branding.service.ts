/**
 * A tenant's branding for every page: name, logo, colours and contact details from tenant_settings
 * (read through its owning module), with the tenant's name and neutral colours where a field is unset.
 */
import type { Db, Queryable } from '@platform/db';
import { getTenantSettings } from '@platform/email';
import { TENANCY_CHANNEL } from '@platform/tenancy';

import type { HostTenant } from './host-tenant.resolver.js';

export interface Branding {
  name: string;
  logoUrl: string | null;
  faviconUrl: string | null;
  primary: string;
  secondary: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  helpdeskEnabled: boolean;
  portalEnabled: boolean;
  /** ISO 4217: the office shows money in it. */
  currency: string;
}

export const DEFAULT_PRIMARY = '#1f4e79';
export const DEFAULT_SECONDARY = '#f4f6f8';
const HEX = /^#[0-9a-fA-F]{6}$/;
const TTL_MS = 10_000;

export class BrandingService {
  private cache = new Map<string, { b: Branding; at: number }>();
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Queryable & Partial<Pick<Db, 'listen'>>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Forgets every tenant's branding when tenant_settings changes (its trigger notifies the tenancy
   * channel), so a logo or colour saved in Settings shows on the very next page, not after the TTL.
   */
  async start(): Promise<void> {
    if (this.stopListening || !this.db.listen) return;
    this.stopListening = await this.db.listen(TENANCY_CHANNEL, () => this.cache.clear());
  }

  async stop(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
  }

  async forTenant(tenant: HostTenant): Promise<Branding> {
    const hit = this.cache.get(tenant.id);
    if (hit && this.now() - hit.at < TTL_MS) return hit.b;
    const s = await getTenantSettings(this.db, tenant.id);
    const b: Branding = {
      name: s?.company_name || tenant.name,
      logoUrl: safeUrl(s?.logo_url),
      faviconUrl: safeUrl(s?.favicon_url),
      primary: s?.primary_color && HEX.test(s.primary_color) ? s.primary_color : DEFAULT_PRIMARY,
      secondary: s?.secondary_color && HEX.test(s.secondary_color) ? s.secondary_color : DEFAULT_SECONDARY,
      phone: s?.phone ?? null,
      email: s?.email ?? null,
      address: s?.address ?? null,
      helpdeskEnabled: s?.helpdesk_enabled ?? true,
      portalEnabled: s?.portal_enabled ?? true,
      currency: s?.currency ?? 'USD',
    };
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(tenant.id, { b, at: this.now() });
    return b;
  }
}

/** Only http(s) or root-relative URLs reach an src attribute. */
function safeUrl(u: string | null | undefined): string | null {
  if (!u) return null;
  if (u.startsWith('/') && !u.startsWith('//')) return u;
  try {
    const p = new URL(u);
    return p.protocol === 'https:' || p.protocol === 'http:' ? p.href : null;
  } catch {
    return null;
  }
}
