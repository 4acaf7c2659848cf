/**
 * The accounting tax mapping API against the local accounting stand-in and each tenant's embedded
 * ERP: nothing before the connection, each ERP sale tax beside the provider's ACTIVE sale rates with
 * the automatic choice (one rate of its percent) or why a choice is needed, the automatic mapping on
 * demand, the owner's choices saved (the same PUT twice, the same state) and unknown tax types or taxes
 * refused naming the field; office staff and other tenants refused.
 */
import type { RunningLocalAccounting } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { accountingEnv, connectAccounting, startTaxStandIn } from '../../testing/accounting-connected.js';
import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
let acct: RunningLocalAccounting;
const tax: Record<string, number> = {};
const url = (id: string, rest = '') => `/api/tenants/${id}/integrations/accounting/tax-mapping${rest}`;

beforeAll(async () => {
  acct = await startTaxStandIn();
  k = await startCrmSalesKit(accountingEnv(acct));
  const erp = k.a.erp.erp;
  for (const [key, name, amount] of [
    ['st', 'State sales tax 8.25%', 8.25],
    ['gst', 'GST 10%', 10],
    ['county', 'County tax 5%', 5],
    ['zero', 'Exempt 0%', 0],
  ] as const)
    tax[key] = await erp.create('account.tax', { name, amount, amount_type: 'percent', type_tax_use: 'sale' });
  await erp.create('account.tax', { name: 'Purchase tax 8.25%', amount: 8.25, type_tax_use: 'purchase' });
}, 120_000);
afterAll(async () => {
  await k?.close();
  await acct?.close();
});

const rowOf = (body: { taxes: { erp_tax_id: number }[] }, id: number | undefined) =>
  body.taxes.find((t) => t.erp_tax_id === id);

describe('accounting tax mapping', () => {
  it('needs the accounting connected first', async () => {
    const r = await k.call('GET', url(k.a.id), k.a.owner);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('INTEGRATION_NOT_CONFIGURED');
  });

  it('lists each ERP sale tax with the automatic choice, or why it needs one, beside the active sale rates', async () => {
    await connectAccounting(k.kit.t.db, k.kit.deps.box, k.a.id, acct);
    const r = await k.call('GET', url(k.a.id), k.a.owner);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.rates.map((x: { tax_type: string }) => x.tax_type)).toEqual([
      'NONE',
      'TAX825',
      'OUTPUT',
      'GSTIMPORT',
    ]);
    expect(rowOf(r.body, tax['st'])).toEqual({
      erp_tax_id: tax['st'],
      name: 'State sales tax 8.25%',
      amount: 8.25,
      tax_type: null,
      suggested: 'TAX825',
      needs_choice: null,
    });
    expect(rowOf(r.body, tax['gst'])).toMatchObject({ suggested: null, needs_choice: 'ambiguous' });
    expect(rowOf(r.body, tax['county'])).toMatchObject({ suggested: null, needs_choice: 'unmatched' });
    expect(r.body.taxes.some((t: { name: string }) => t.name === 'Purchase tax 8.25%')).toBe(false);
  });

  it('maps on demand only the taxes that match one rate, and keeps them', async () => {
    const r = await k.call('POST', url(k.a.id, '/auto'), k.a.owner);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(rowOf(r.body, tax['st'])).toMatchObject({ tax_type: 'TAX825', needs_choice: null });
    expect(rowOf(r.body, tax['zero'])).toMatchObject({ tax_type: 'NONE' });
    expect(rowOf(r.body, tax['gst'])).toMatchObject({ tax_type: null, needs_choice: 'ambiguous' });
    const again = await k.call('GET', url(k.a.id), k.a.owner);
    expect(rowOf(again.body, tax['st'])).toMatchObject({ tax_type: 'TAX825' });
  });

  it('refuses a tax type the provider has not active for sales, or a tax the ERP has not, naming the field', async () => {
    for (const [id, type] of [
      [tax['gst'], 'NOPE'],
      [tax['gst'], 'OLD7'],
      [tax['gst'], 'INPUT825'],
      [999_999, 'OUTPUT'],
    ] as const) {
      const r = await k.call('PUT', url(k.a.id), k.a.owner, { tax_types: { [String(id)]: type } });
      expect(r.status, `${id} ${type}`).toBe(422);
      expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual([`tax_types.${id}`]);
    }
    const bad = await k.call('PUT', url(k.a.id), k.a.owner, { tax_types: { abc: 'OUTPUT' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toContain('tax_types');
    expect(rowOf((await k.call('GET', url(k.a.id), k.a.owner)).body, tax['gst'])).toMatchObject({ tax_type: null });
  });

  it("saves the owner's choices; the same PUT again leaves the same mapping", async () => {
    const body = { tax_types: { [String(tax['gst'])]: 'GSTIMPORT', [String(tax['st'])]: 'OUTPUT' } };
    const first = await k.call('PUT', url(k.a.id), k.a.owner, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(rowOf(first.body, tax['gst'])).toMatchObject({ tax_type: 'GSTIMPORT', needs_choice: null });
    expect(rowOf(first.body, tax['st'])).toMatchObject({ tax_type: 'OUTPUT', suggested: 'TAX825' });
    expect(rowOf(first.body, tax['zero'])).toMatchObject({ tax_type: 'NONE' });
    const second = await k.call('PUT', url(k.a.id), k.a.owner, body);
    expect(second.body).toEqual(first.body);
    // Auto-mapping again never replaces what the owner chose.
    const auto = await k.call('POST', url(k.a.id, '/auto'), k.a.owner);
    expect(rowOf(auto.body, tax['st'])).toMatchObject({ tax_type: 'OUTPUT' });
  });

  it('never asks the provider with a grant made before the tax rates were asked for (its 403 would stop the sync)', async () => {
    const db = k.kit.t.db;
    const { rows } = await db.query<{ granted_scopes: string }>(
      'SELECT granted_scopes FROM accounting_connections WHERE tenant_id = $1',
      [k.a.id],
    );
    const granted = rows[0]!.granted_scopes;
    expect(granted).toContain('accounting.settings.read');
    await db.query('UPDATE accounting_connections SET granted_scopes = $2 WHERE tenant_id = $1', [
      k.a.id,
      granted.replace('accounting.settings.read', '').trim(),
    ]);
    try {
      const calls = acct.requests.length;
      const r = await k.call('GET', url(k.a.id), k.a.owner);
      expect(r.status).toBe(502);
      expect(r.body).toMatchObject({ code: 'ACCOUNTING_PROVIDER_FAILED', provider_error: 'missing_scope' });
      expect(acct.requests.length).toBe(calls);
    } finally {
      await db.query('UPDATE accounting_connections SET granted_scopes = $2 WHERE tenant_id = $1', [k.a.id, granted]);
    }
  });

  it('refuses office staff (403) and another tenant (404), changing nothing', async () => {
    const before = (await k.call('GET', url(k.a.id), k.a.owner)).body;
    const body = { tax_types: { [String(tax['gst'])]: 'OUTPUT' } };
    expect((await k.call('GET', url(k.a.id), k.a.office)).status).toBe(403);
    expect((await k.call('PUT', url(k.a.id), k.a.office, body)).status).toBe(403);
    expect((await k.call('GET', url(k.a.id), k.b.owner)).status).toBe(404);
    expect((await k.call('PUT', url(k.a.id), k.b.owner, body)).status).toBe(404);
    expect((await k.call('POST', url(k.a.id, '/auto'), k.b.owner)).status).toBe(404);
    expect((await k.call('GET', url(k.a.id), k.a.owner)).body).toEqual(before);
    expect((await k.call('GET', url(k.b.id), k.b.owner)).body.code).toBe('INTEGRATION_NOT_CONFIGURED');
  });
});
