/**
 * Scopes of the LOCAL stand-in, checked on every API call as Xero does: each endpoint needs one of
 * its scopes in the grant (the granular scope, its `.read` variant for GETs, or the broad
 * `accounting.transactions` family of older apps). Without it the call gets 403.
 * Granular families: developer.xero.com/documentation/guides/oauth2/scopes (docs/integrations.md).
 */
export const KNOWN_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'accounting.contacts',
  'accounting.contacts.read',
  'accounting.invoices',
  'accounting.invoices.read',
  'accounting.payments',
  'accounting.payments.read',
  'accounting.settings',
  'accounting.settings.read',
  'accounting.transactions',
  'accounting.transactions.read',
];

const FAMILY: Record<string, string[]> = {
  Contacts: ['accounting.contacts'],
  Invoices: ['accounting.invoices', 'accounting.transactions'],
  CreditNotes: ['accounting.invoices', 'accounting.transactions'],
  Payments: ['accounting.payments', 'accounting.transactions'],
  Overpayments: ['accounting.payments', 'accounting.transactions'],
  Prepayments: ['accounting.payments', 'accounting.transactions'],
  TaxRates: ['accounting.settings'],
};

/** The scopes that allow `method` on `resource` (e.g. `Invoices`); undefined when the resource is unknown. */
export function scopesFor(resource: string, method: string): string[] | undefined {
  const family = FAMILY[resource];
  if (!family) return undefined;
  return method === 'GET' ? family.flatMap((s) => [s, `${s}.read`]) : family;
}

export function hasScope(granted: string, resource: string, method: string): boolean {
  const need = scopesFor(resource, method);
  if (!need) return true;
  const have = new Set(granted.split(/\s+/));
  return need.some((s) => have.has(s));
}
