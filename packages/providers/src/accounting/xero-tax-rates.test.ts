import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AccountingAuth, AccountingError } from './accounting.port.js';
import { adapters, connect, rejection, SCOPES, startStandIn } from './accounting.test-helpers.js';
import type { RunningLocalAccounting } from './local/local-accounting.server.js';

describe('Xero adapter: tax rates against the local stand-in', () => {
  let local: RunningLocalAccounting;
  let api: ReturnType<typeof adapters>['api'];
  let oauth: ReturnType<typeof adapters>['oauth'];
  let auth: AccountingAuth;
  beforeAll(async () => {
    local = await startStandIn({
      tenants: [{ tenantId: 'tenant-a', tenantName: 'Blinds & Co' }],
      taxRates: { NONE: 0, OUTPUT: 0.1, TAX825: 0.0825 },
      taxRateDetails: {
        NONE: { name: 'Tax Exempt' },
        TAX825: { name: 'Sales Tax 8.25%' },
        OLD7: { name: 'Retired 7%', rate: 0.07, status: 'ARCHIVED' },
      },
    });
    ({ api, oauth } = adapters(local));
    auth = { accessToken: (await connect(oauth)).accessToken, tenantId: 'tenant-a' };
  });
  afterAll(() => local.close());

  it('lists every rate with its code, name, percent and status, archived ones included', async () => {
    const rates = await api.listTaxRates(auth);
    expect(rates).toEqual([
      {
        taxType: 'NONE',
        name: 'Tax Exempt',
        effectiveRate: 0,
        displayRate: 0,
        status: 'ACTIVE',
        canApplyToRevenue: true,
      },
      {
        taxType: 'OUTPUT',
        name: 'OUTPUT',
        effectiveRate: 10,
        displayRate: 10,
        status: 'ACTIVE',
        canApplyToRevenue: true,
      },
      {
        taxType: 'TAX825',
        name: 'Sales Tax 8.25%',
        effectiveRate: 8.25,
        displayRate: 8.25,
        status: 'ACTIVE',
        canApplyToRevenue: true,
      },
      {
        taxType: 'OLD7',
        name: 'Retired 7%',
        effectiveRate: 7,
        displayRate: 7,
        status: 'ARCHIVED',
        canApplyToRevenue: true,
      },
    ]);
  });

  it('taxes an invoice line at the listed rate of its TaxType', async () => {
    const { contactId } = await api.upsertContact(auth, { name: 'Tax Person', contactNumber: 'P-TAX' });
    const created = await api.createInvoice(auth, {
      contactId,
      reference: 'INV/TAX/1',
      date: '2026-01-10',
      lineAmountTypes: 'Exclusive',
      status: 'AUTHORISED',
      lines: [{ description: 'Shutters', quantity: 1, unitAmount: 200, accountCode: '200', taxType: 'TAX825' }],
    });
    const rate = (await api.listTaxRates(auth)).find((r) => r.taxType === 'TAX825')!;
    expect(created.total).toBe(200 + (200 * rate.effectiveRate) / 100);
  });

  it('is refused with 403 (needs reconnect) when the grant lacks accounting.settings', async () => {
    local.setConsentScopes(SCOPES.filter((s) => !s.startsWith('accounting.settings')));
    try {
      const narrow = { accessToken: (await connect(oauth)).accessToken, tenantId: 'tenant-a' };
      const e = await rejection<AccountingError>(api.listTaxRates(narrow));
      expect(e).toBeInstanceOf(AccountingError);
      expect(e.needsReconnect).toBe(true);
    } finally {
      local.setConsentScopes(undefined);
    }
  });
});
