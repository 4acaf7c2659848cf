/**
 * The links emailed for invitations, password resets and email verification. The token travels in the URL fragment
 * (`#token=`), which browsers never send to a server: it stays out of access logs, proxies and
 * Referer headers; the page reads it and posts it to the API.
 */
export interface LinkConfig {
  ACCOUNTS_LINK_BASE_URL?: string | undefined;
  TENANTS_HOST: string;
  /** A tenant host's public origin (TenantPublicOrigins), used when no base URL is configured. */
  tenantOrigin: (host: string) => string;
}

export type LinkKind = 'invitation' | 'password-reset' | 'email-verification';

const PATHS: Record<LinkKind, string> = {
  invitation: '/account/accept-invitation',
  'password-reset': '/account/reset-password',
  'email-verification': '/verify-email',
};

export function accountLink(c: LinkConfig, tenantSlug: string, kind: LinkKind, token: string): string {
  const base = (c.ACCOUNTS_LINK_BASE_URL ?? c.tenantOrigin(`{slug}.${c.TENANTS_HOST}`))
    .replace('{slug}', tenantSlug)
    .replace(/\/+$/, '');
  return `${base}${PATHS[kind]}#token=${encodeURIComponent(token)}`;
}
