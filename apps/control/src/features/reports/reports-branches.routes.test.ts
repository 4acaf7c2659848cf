/**
 * Reports by branch and in the tenant's time zone, against tenant A's own embedded ERP: `?branch=`
 * narrows every figure to the branch's ZIP codes (the default branch takes the rest), the funnel's
 * revenue by branch adds up to the paid invoices to the cent, another tenant's branch is not found,
 * and "today" is the tenant's day, not UTC's.
 */
import { invoiceOrder } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { threeWindows } from '../../testing/quote-fixtures.js';
import { todayIn } from './report-range.js';

let k: CrmSalesKit;
const branch: Record<string, string> = {};
const cents: Record<string, number> = {};
const today = () => todayIn(new Date(), 'UTC');
const range = () => `from=${today()}&to=${today()}`;

async function soldIn(zip: string) {
  const q = await k.call('POST', '/sales/quotes', k.a.office, {
    ...threeWindows,
    customer: { ...threeWindows.customer, zip, email: `c${zip}@example.com` },
  });
  expect(q.status).toBe(201);
  const move = await invoiceOrder(k.a.erp.erp, q.body.sale_order_id, today());
  const [m] = await k.a.erp.erp.read('account.move', [move], ['amount_total']);
  return Math.round(Number(m!.amount_total) * 100);
}

beforeAll(async () => {
  k = await startCrmSalesKit();
  // The tenant keeps UTC days here so "today" is the day the records are made, whatever the hour.
  expect((await k.call('PUT', `/api/tenants/${k.a.id}/settings`, k.a.owner, { time_zone: 'UTC' })).status).toBe(200);
  const add = async (name: string, zip_codes: string[]) =>
    (await k.call('POST', `/api/tenants/${k.a.id}/branches`, k.a.owner, { name, zip_codes })).body.id as string;
  branch.denver = await add('Denver', ['80202']); // the first branch is the default
  branch.boulder = await add('Boulder', ['80301', '80302']);
  cents.denver = await soldIn('80202');
  cents.other = await soldIn('99999'); // no branch serves it: the default's
  cents.boulder = await soldIn('80301');
  await k.a.erp.erp.create('crm.lead', { name: 'Boulder lead', zip: '80302' });
}, 120_000);
afterAll(async () => k?.close());

describe('reports by branch', () => {
  it('narrows the summary to a branch’s ZIP codes; the default branch takes the unserved ones', async () => {
    const boulder = await k.call('GET', `/reports/summary?${range()}&branch=${branch.boulder}`, k.a.office);
    expect(boulder.status).toBe(200);
    expect(boulder.body).toMatchObject({ branch: branch.boulder, quotes_sent: 1, revenue: cents.boulder });
    const denver = await k.call('GET', `/reports/summary?${range()}&branch=${branch.denver}`, k.a.office);
    expect(denver.body).toMatchObject({ quotes_sent: 2, revenue: cents.denver! + cents.other! });
    const all = await k.call('GET', `/reports/summary?${range()}`, k.a.office);
    expect(all.body).toMatchObject({ branch: null, revenue: cents.denver! + cents.other! + cents.boulder! });
  });

  it('gives the funnel revenue by branch, adding up to the paid invoices to the cent, and filters it', async () => {
    const r = await k.call('GET', `/reports/funnel?${range()}`, k.a.owner);
    expect(r.status).toBe(200);
    expect(r.body.branches).toEqual([
      { id: branch.denver, name: 'Denver', paid: 2, revenue: cents.denver! + cents.other! },
      { id: branch.boulder, name: 'Boulder', paid: 1, revenue: cents.boulder },
    ]);
    expect(r.body.branches.reduce((n: number, b: { revenue: number }) => n + b.revenue, 0)).toBe(r.body.total.revenue);
    const b = await k.call('GET', `/reports/funnel?${range()}&branch=${branch.boulder}`, k.a.owner);
    expect(b.body.total).toMatchObject({ leads: 1, quotes: 1, won: 1, paid: 1, revenue: cents.boulder });
    expect(b.body.branches).toEqual([{ id: branch.boulder, name: 'Boulder', paid: 1, revenue: cents.boulder }]);
  });

  it('refuses another tenant’s branch and a branch that is no id', async () => {
    const other = await k.call('GET', `/reports/summary?${range()}&branch=${branch.boulder}`, k.b.office);
    expect(other.status).toBe(404);
    const bad = await k.call('GET', `/reports/summary?branch=north`, k.a.office);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('branch');
  });
});

describe('reports in the tenant’s time zone', () => {
  it('counts "today" as the tenant’s day, which is not UTC’s on the other side of the date line', async () => {
    const now = new Date();
    // At any hour one of these two is on another calendar day than UTC.
    const tz = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((z) => todayIn(now, z) !== todayIn(now, 'UTC'))!;
    expect((await k.call('PUT', `/api/tenants/${k.b.id}/settings`, k.b.owner, { time_zone: tz })).status).toBe(200);
    const made = (await k.call('POST', '/sales/quotes', k.b.office, threeWindows)).body;
    await k.call('POST', `/sales/quotes/${made.id}/send`, k.b.office);
    const local = await k.call('GET', '/reports/summary', k.b.office);
    expect(local.body).toMatchObject({ time_zone: tz, to: todayIn(now, tz), quotes_sent: 1 });
    const utcDay = todayIn(now, 'UTC');
    const other = await k.call('GET', `/reports/summary?from=${utcDay}&to=${utcDay}`, k.b.office);
    expect(other.body.quotes_sent).toBe(0);
  });
});
