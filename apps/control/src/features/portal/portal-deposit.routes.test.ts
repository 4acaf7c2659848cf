/**
 * The deposit the portal and the office show is the tenant's own deposit rule on the quote's ERP
 * total (docs/payments.md, "The deposit on acceptance"): the 50 % default until the owner sets one,
 * and one tenant's rule never changes another's quotes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, type SalesTenant, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;

beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

const window = (room: string) => ({
  product_code: 'wood-blind',
  room,
  width_in: 46,
  drop_in: 58.875,
  mount: 'outside',
  colour: 'Walnut',
  options: [],
});

/** A sent quote of two windows for the tenant: its id and portal token. */
async function sentQuote(t: SalesTenant): Promise<{ id: string; token: string }> {
  const q = await k.call('POST', '/sales/quotes', t.office, {
    customer: { name: 'Priya Raman', email: 'priya@example.com' },
    lines: [window('Office'), window('Den')],
  });
  expect(q.status).toBe(201);
  const sent = await k.call('POST', `/sales/quotes/${q.body.id}/send`, t.office);
  return { id: q.body.id as string, token: sent.body.token as string };
}

/** What the customer sees on the portal and the office on the quote. */
async function deposits(t: SalesTenant, q: { id: string; token: string }) {
  const portal = await k.call('GET', `/portal/quotes/${q.token}`, undefined, undefined, { 'x-tenant-id': t.id });
  const office = await k.call('GET', `/sales/quotes/${q.id}`, t.office);
  expect(portal.status).toBe(200);
  expect(office.body.deposit).toBe(portal.body.quote.deposit);
  return { total: portal.body.quote.amount_total as number, deposit: portal.body.quote.deposit as number };
}

const setRule = async (t: SalesTenant, rule: object) =>
  expect((await k.call('PUT', `/api/tenants/${t.id}/payments/deposit-rule`, t.owner, rule)).status).toBe(200);

/** Whole cents, so the deposit is exactly an amount in minor units. */
const isCents = (x: number) => Math.abs(x * 100 - Math.round(x * 100)) < 1e-6;

describe("the deposit from the tenant's rule", () => {
  it('asks half the total, to the cent, while the tenant has set no rule', async () => {
    const { total, deposit } = await deposits(k.a, await sentQuote(k.a));
    expect(total).toBeGreaterThan(0);
    expect(isCents(deposit)).toBe(true);
    expect(Math.abs(deposit - total / 2)).toBeLessThanOrEqual(0.005);
  });

  it("follows B's percent, fixed and none rules while A's quotes keep the default", async () => {
    const qa = await sentQuote(k.a);
    const qb = await sentQuote(k.b);
    await setRule(k.b, { kind: 'percent', percent: 30 });
    const pct = await deposits(k.b, qb);
    expect(isCents(pct.deposit)).toBe(true);
    expect(Math.abs(pct.deposit - pct.total * 0.3)).toBeLessThanOrEqual(0.005);

    await setRule(k.b, { kind: 'fixed', amount_minor: 12_345 });
    expect((await deposits(k.b, qb)).deposit).toBe(Math.min(123.45, pct.total));
    // A fixed deposit above the total asks the total, never more.
    await setRule(k.b, { kind: 'fixed', amount_minor: 9_000_000 });
    expect((await deposits(k.b, qb)).deposit).toBe(pct.total);

    await setRule(k.b, { kind: 'none' });
    expect((await deposits(k.b, qb)).deposit).toBe(0);
    const list = await k.call('GET', '/sales/quotes', k.b.office);
    expect(list.body.items.find((i: { id: string }) => i.id === qb.id).deposit).toBe(0);

    const a = await deposits(k.a, qa);
    expect(Math.abs(a.deposit - a.total / 2)).toBeLessThanOrEqual(0.005);
  });
});
