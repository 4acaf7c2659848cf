/**
 * /reports against each tenant's own embedded ERP: a lead's attribution carried to its order and
 * invoice, the summary and the funnel exact to the cent, the plan gate, CSV, bad input, roles, isolation.
 */
import type { Erp } from '@platform/erp';
import { invoiceOrder } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
let erp: Erp;
let google: number;
const today = new Date().toISOString().slice(0, 10);
const range = `from=${today}&to=${today}`;
/** Cents of each paid invoice, by UTM source name. */
const paid: Record<string, number> = {};

/** A GET answered as text (the kit's `call` parses JSON). */
const text = async (url: string, token: string, headers: Record<string, string> = {}) => {
  const r = await k.kit.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: r.statusCode, headers: r.headers, body: r.body };
};

const cents = async (move: number) =>
  Math.round(Number((await erp.read('account.move', [move], ['amount_total']))[0]!.amount_total) * 100);

beforeAll(async () => {
  k = await startCrmSalesKit();
  // UTC days, so "today" below is the tenant's day whatever the hour (time zones: reports-branches test).
  expect((await k.call('PUT', `/api/tenants/${k.a.id}/settings`, k.a.owner, { time_zone: 'UTC' })).status).toBe(200);
  erp = k.a.erp.erp;
  google = await erp.create('utm.source', { name: 'google' });
  const facebook = await erp.create('utm.source', { name: 'facebook' });
  const leadG = await erp.create('crm.lead', {
    name: 'Roller Shades – Dana Whitfield',
    source_id: google,
    x_form_source: 'lp_kitchen_form',
    x_lp_slug: 'kitchen',
    x_gclid: 'gclid-1',
  });
  const leadF = await erp.create('crm.lead', { name: 'Shutters – Eli', source_id: facebook, x_lp_slug: 'bath' });
  await erp.create('crm.lead', { name: 'Walk-in – Flo' });
  // Google's lead through the platform's own quote: the order must carry the lead's attribution.
  const q = await k.call('POST', '/sales/quotes', k.a.office, { ...threeWindows, lead_id: leadG });
  expect(q.status).toBe(201);
  paid.google = await cents(await invoiceOrder(erp, q.body.sale_order_id, today));
  // Facebook's: an order made in the ERP with the attribution, 123.45 paid and 99.99 invoiced but unpaid.
  const partner = await erp.create('res.partner', { name: 'Eli' });
  const order = (price: number) =>
    erp.create('sale.order', {
      partner_id: partner,
      opportunity_id: leadF,
      source_id: facebook,
      x_lp_slug: 'bath',
      order_line: [[0, 0, { name: 'Shutter', price_unit: price, product_uom_qty: 1 }]],
    });
  paid.facebook = await cents(await invoiceOrder(erp, await order(123.45), today));
  await invoiceOrder(erp, await order(99.99));
  // Two jobs done today by one technician, 90 minutes on site each; one still open.
  const team = await erp.create('fsm.team', { name: 'Installers' });
  const location = await erp.create('fsm.location', { name: '12 Elm Street', partner_id: partner });
  const person = await erp.create('fsm.person', { name: 'Tess Tech' });
  for (const [i, complete] of [true, true, false].entries()) {
    const job = await erp.create('fsm.order', {
      team_id: team,
      location_id: location,
      person_id: person,
      scheduled_date_start: `${today} 09:00:00`,
      date_start: `${today} 1${i}:00:00`,
      date_end: `${today} 1${i}:30:00`,
    });
    if (complete) await erp.call('fsm.order', 'action_complete', [[job]]);
  }
}, 120_000);
afterAll(async () => k?.close());

describe('reports', () => {
  it('carries the lead’s attribution from the quote onto its order and invoice', async () => {
    const [inv] = await erp.searchRead('account.move', [['source_id', '=', google]], {
      fields: ['x_form_source', 'x_lp_slug', 'x_gclid', 'invoice_origin'],
    });
    expect(inv).toMatchObject({ x_form_source: 'lp_kitchen_form', x_lp_slug: 'kitchen', x_gclid: 'gclid-1' });
    const [order] = await erp.searchRead('sale.order', [['source_id', '=', google]], { fields: ['opportunity_id'] });
    expect(order!.opportunity_id).toBeTruthy();
    // A lead gone from the ERP: the quote is made all the same, carrying nothing.
    const gone = await k.call('POST', '/sales/quotes', k.b.office, { ...threeWindows, lead_id: 999_999 });
    expect(gone.status).toBe(201);
    const [made] = await k.b.erp.erp.read('sale.order', [gone.body.sale_order_id], ['opportunity_id', 'source_id']);
    expect(made).toMatchObject({ opportunity_id: false, source_id: false });
  });

  it('sums up jobs done, quotes sent and won, and the paid invoices to the cent', async () => {
    const r = await k.call('GET', `/reports/summary?${range}`, k.a.office);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ currency: 'USD', jobs_done: 2, quotes_sent: 3, quotes_won: 3 });
    expect(r.body.revenue).toBe(paid.google! + paid.facebook!);
    expect(paid.facebook).toBe(12345);
    expect(r.body.revenue_this_month).toBe(r.body.revenue);
    expect(r.body.revenue_last_month).toBe(0);
  });

  it('shows the funnel by UTM source, its revenue equal to the paid invoices to the cent', async () => {
    const r = await k.call('GET', `/reports/funnel?${range}&group=utm_source`, k.a.owner);
    expect(r.status).toBe(200);
    const by = Object.fromEntries(r.body.rows.map((x: { key: string | null }) => [String(x.key), x]));
    expect(by.google).toMatchObject({ leads: 1, quotes: 1, won: 1, paid: 1, revenue: paid.google });
    expect(by.facebook).toMatchObject({ leads: 1, quotes: 2, won: 2, paid: 1, revenue: 12345 });
    expect(by.null).toMatchObject({ leads: 1, quotes: 0, revenue: 0 });
    expect(r.body.total.revenue).toBe(paid.google! + paid.facebook!);
    expect(r.body.technicians).toEqual([
      { technician: 'Tess Tech', jobs: 2, days: 1, jobs_per_day: 2, minutes_on_site: 30 },
    ]);
    expect(r.body.average_quote).toBeGreaterThan(0);
    const byPage = await k.call('GET', `/reports/funnel?${range}&group=landing_page`, k.a.owner);
    expect(byPage.body.rows.map((x: { key: string | null }) => String(x.key)).sort()).toEqual([
      'bath',
      'kitchen',
      'null',
    ]);
  });

  it('exports CSV by ?format=csv and by Accept: text/csv', async () => {
    const a = await text(`/reports/funnel?${range}&group=utm_source&format=csv`, k.a.office);
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toMatch(/^text\/csv/);
    expect(a.headers['content-disposition']).toMatch(/attachment; filename="funnel-utm_source-/);
    const lines = String(a.body).trim().split('\r\n');
    expect(lines[0]).toBe('utm_source,leads,quotes,won,paid,revenue (USD)');
    expect(lines).toContain('facebook,1,2,2,1,123.45');
    expect(lines.at(-1)).toBe(`total,3,3,3,2,${((paid.google! + 12345) / 100).toFixed(2)}`);
    const s = await text(`/reports/summary?${range}`, k.a.office, { accept: 'text/csv' });
    expect(s.headers['content-type']).toMatch(/^text\/csv/);
    expect(String(s.body).split('\r\n')[1]).toMatch(new RegExp(`^${today},${today},2,3,3,`));
    const t = await text(`/reports/funnel?${range}&format=csv&part=technicians`, k.a.office);
    expect(String(t.body)).toContain('Tess Tech,2,1,2,30');
  });

  it('refuses the funnel on a plan without advanced reports, naming the plan; the summary stays', async () => {
    const free = await k.kit.tenant('free-co', 'free');
    k.route(free.id, k.b.erp.erp);
    const r = await k.call('GET', `/reports/funnel?${range}`, free.token);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'PLAN_FEATURE_MISSING', required_plan: 'professional' });
    expect((await text(`/reports/funnel?${range}&format=csv`, free.token)).status).toBe(403);
    expect((await k.call('GET', `/reports/summary?${range}`, free.token)).status).toBe(200);
  });

  it('answers each tenant from its own ERP only', async () => {
    const s = await k.call('GET', `/reports/summary?${range}`, k.b.office);
    expect(s.body).toMatchObject({ jobs_done: 0, quotes_won: 0, revenue: 0 });
    const f = await k.call('GET', `/reports/funnel?${range}&group=utm_source`, k.b.owner);
    expect(f.body.rows).toEqual([]);
    expect(f.body.total.revenue).toBe(0);
  });

  it('names the field of bad input, and keeps technicians and strangers out', async () => {
    const back = await k.call('GET', `/reports/summary?from=${today}&to=2000-01-01`, k.a.office);
    expect(back.status).toBe(422);
    expect(JSON.stringify(back.body)).toContain('to');
    const group = await k.call('GET', `/reports/funnel?group=zip`, k.a.office);
    expect(group.status).toBe(422);
    expect(JSON.stringify(group.body)).toContain('group');
    expect((await k.call('GET', '/reports/summary?from=yesterday', k.a.office)).status).toBe(422);
    expect((await k.call('GET', '/reports/summary', k.a.technician)).status).toBe(403);
    expect((await k.call('GET', '/reports/summary', undefined)).status).toBe(401);
  });
});
