/** The tenant's branding as templates use it, with the platform's defaults where a field is empty. */
import type { TenantSettings } from '@platform/tenancy';

export interface Brand {
  companyName: string;
  logoUrl: string | null;
  primaryColor: string;
  secondaryColor: string;
  phone: string | null;
  email: string | null;
  address: string | null;
}

export function brandOf(s: TenantSettings | undefined, fallbackName: string): Brand {
  const http = (u: string | null | undefined) => (u && /^https?:\/\//i.test(u) ? u : null);
  const hex = (c: string | null | undefined, d: string) => (c && /^#[0-9A-Fa-f]{6}$/.test(c) ? c : d);
  return {
    companyName: s?.company_name || fallbackName,
    logoUrl: http(s?.logo_url),
    primaryColor: hex(s?.primary_color, '#1F4E79'),
    secondaryColor: hex(s?.secondary_color, '#F2F2F2'),
    phone: s?.phone ?? null,
    email: s?.email ?? null,
    address: s?.address ?? null,
  };
}
