/**
 * Slugs no self-serve sign-up may take: each becomes `<slug>.<TENANTS_HOST>`, so these would pose as
 * the platform's own hosts (www, api, mail, …), its pages, or common trust-bearing names.
 * The operator's CLI and API may still create any of them on purpose.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin', 'administrator', 'api', 'app', 'apps', 'assets', 'auth', 'billing', 'blog', 'cdn', 'control',
  'dashboard', 'default', 'dev', 'docs', 'email', 'erp', 'field', 'ftp', 'help', 'helpdesk', 'imap',
  'internal', 'landing', 'localhost', 'login', 'mail', 'mx', 'ns', 'ns1', 'ns2', 'office', 'operator',
  'platform', 'pop', 'portal', 'root', 'security', 'signup', 'smtp', 'staging', 'static', 'status',
  'support', 'system', 'test', 'tenants', 'verify', 'webhooks', 'webmail', 'www',
]);

export const isReservedSlug = (slug: string): boolean => RESERVED_SLUGS.has(slug);
