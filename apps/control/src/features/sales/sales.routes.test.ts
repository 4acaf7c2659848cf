/**
 * /sales/quotes and /sales/orders against a real embedded ERP per tenant: quotes priced into sale orders,
 * sending, confirming; tenants kept apart, retries making one order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { ordersWithOrigin, threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

describe('quotes', () => {
  let quoteId: string;

  it('prices three windows from the grids into one sale order with the window details on its lines', async () => {
    const r = await k.call('POST', '/sales/quotes', k.a.office, threeWindows);
    expect(r.status).toBe(201);
    quoteId = r.body.id;
    // Kitchen: 35.5 x 47.125 inside → band 36 x 48 (89 + 18 + 12 = 119) + motorisation 249 = 368.
    // Den: 36 x 36 outside (+3) → 48 x 48: 89 + 36 + 12 = 137. Bedroom shutter 30 x 50 → 36 x 60: 289 + 55 + 80 = 424 + 85.
    expect(r.body.lines.map((l: { unit_price: number }) => l.unit_price)).toEqual([368, 137, 509]);
    expect(r.body.amount_untaxed).toBe(1014);
    expect(r.body.deposit).toBe(507);
    expect(r.body.state).toBe('draft');
    const lines = await k.a.erp.erp.searchRead('sale.order.line', [['order_id', '=', r.body.sale_order_id]], {
      fields: ['name', 'price_unit'],
      order: 'sequence',
    });
    expect(lines).toHaveLength(3);
    expect(lines[0]!.name).toContain('35 1/2" W × 47 1/8" H, inside mount, Linen');
    expect(lines[0]!.name).toContain('Motorisation');
    const [order] = await k.a.erp.erp.read('sale.order', [r.body.sale_order_id], ['partner_id']);
    expect((order!.partner_id as [number, string])[1]).toBe('Dana Whitfield');
  });

  it('gives the windows of a quoted order to whoever plans its install (jobs seam)', async () => {
    const q = (await k.call('GET', `/sales/quotes/${quoteId}`, k.a.office)).body;
    const windows = await k.kit.deps.sales.quotes.windowsForOrder(k.a.id, q.sale_order_id);
    expect(windows.map((w) => `${w.room}:${w.product}:${w.width_in}x${w.drop_in}:${w.mount}`)).toEqual([
      'Kitchen:Roller Shade:35.5x47.125:inside',
      'Den:Roller Shade:36x36:outside',
      'Bedroom:Plantation Shutter:30x50:inside',
    ]);
    expect(await k.kit.deps.sales.quotes.windowsForOrder(k.b.id, q.sale_order_id)).toEqual([]);
  });

  it('refuses a measurement finer than 1/8 inch and writes nothing', async () => {
    const before = await k.a.erp.erp.searchCount('sale.order', []);
    const bad = { ...threeWindows, lines: [threeWindows.lines[0], { ...threeWindows.lines[1], width_in: 36.0625 }] };
    const r = await k.call('POST', '/sales/quotes', k.a.office, bad);
    expect(r.status).toBe(422);
    expect(r.body.errors).toContainEqual(expect.objectContaining({ field: 'lines.1.width_in', rule: 'eighth_inch' }));
    expect(await k.a.erp.erp.searchCount('sale.order', [])).toBe(before);
  });

  it('refuses a window larger than the largest band, naming the field', async () => {
    const big = { ...threeWindows, lines: [{ ...threeWindows.lines[2], width_in: 71, mount: 'outside' }] };
    const r = await k.call('POST', '/sales/quotes', k.a.office, big);
    expect(r.status).toBe(422);
    expect(r.body.errors).toContainEqual(expect.objectContaining({ field: 'lines.0.width_in', rule: 'max_band' }));
  });

  it('names an unknown product and an unknown option on the windows that use them', async () => {
    const lines = [
      { ...threeWindows.lines[0], product_code: 'awning' },
      { ...threeWindows.lines[1], options: ['lining', 'motorisation'] },
    ];
    const r = await k.call('POST', '/sales/quotes', k.a.office, { ...threeWindows, lines });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string; rule: string }) => `${e.field}:${e.rule}`)).toEqual([
      'lines.0.product_code:unknown_product',
      'lines.1.options.0:unknown_option',
    ]);
  });

  it('answers a retried create with the same Idempotency-Key with the same quote and one order', async () => {
    const h = { 'idempotency-key': 'quote-retry-1' };
    const one = await k.call('POST', '/sales/quotes', k.a.office, threeWindows, h);
    const two = await k.call('POST', '/sales/quotes', k.a.office, threeWindows, h);
    expect(two.status).toBe(201);
    expect(two.body.id).toBe(one.body.id);
    expect(await ordersWithOrigin(k, one.body.id)).toHaveLength(1);
    const other = await k.call(
      'POST',
      '/sales/quotes',
      k.a.office,
      { ...threeWindows, lines: [threeWindows.lines[0]] },
      h,
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it("lists and reads a tenant's quotes; another tenant gets 404 for them", async () => {
    const list = await k.call('GET', '/sales/quotes?page_size=100', k.a.office);
    expect(list.body.items.map((q: { id: string }) => q.id)).toContain(quoteId);
    expect((await k.call('GET', `/sales/quotes/${quoteId}`, k.a.office)).body.lines).toHaveLength(3);
    for (const [m, path] of [
      ['GET', `/sales/quotes/${quoteId}`],
      ['POST', `/sales/quotes/${quoteId}/send`],
      ['POST', `/sales/quotes/${quoteId}/confirm`],
      ['POST', `/sales/quotes/${quoteId}/revoke-links`],
    ] as const)
      expect((await k.call(m, path, k.b.office)).status, `${m} ${path}`).toBe(404);
    expect((await k.call('GET', '/sales/quotes', k.b.office)).body.total).toBe(0);
  });

  it("sends a portal link on the tenant's primary domain, and refuses when the portal is off", async () => {
    const sub = await k.call('POST', `/sales/quotes/${quoteId}/send`, k.a.office);
    expect(sub.status).toBe(200);
    expect(sub.body.portal_url).toBe(`https://acme-blinds.tenants.localhost/portal/quote/${sub.body.token}`);
    await k.kit.t.db.query(
      `INSERT INTO tenant_domains (tenant_id, domain_type, domain, is_primary, ssl_status) VALUES ($1, 'custom', 'blinds.acme.test', true, 'active')`,
      [k.a.id],
    );
    const custom = await k.call('POST', `/sales/quotes/${quoteId}/send`, k.a.office);
    expect(custom.body.portal_url).toMatch(/^https:\/\/blinds\.acme\.test\/portal\/quote\/[A-Za-z0-9_-]{43}$/);
    const stored = await k.kit.t.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM portal_tokens WHERE tenant_id = $1',
      [k.a.id],
    );
    expect(stored.rows.map((r) => r.token_hash)).not.toContain(custom.body.token);
    await k.kit.t.db.query(`INSERT INTO tenant_settings (tenant_id, portal_enabled) VALUES ($1, false)`, [k.a.id]);
    try {
      const off = await k.call('POST', `/sales/quotes/${quoteId}/send`, k.a.office);
      expect(off.status).toBe(403);
      expect(off.body.code).toBe('PORTAL_DISABLED');
    } finally {
      await k.kit.t.db.query('DELETE FROM tenant_settings WHERE tenant_id = $1', [k.a.id]);
    }
  });

  it('confirms a quote in the ERP once, and lists it among the orders', async () => {
    const r = await k.call('POST', `/sales/quotes/${quoteId}/confirm`, k.a.office);
    expect(r.status).toBe(200);
    expect(r.body.state).toBe('sale');
    expect((await k.call('POST', `/sales/quotes/${quoteId}/confirm`, k.a.office)).body.state).toBe('sale');
    const orders = await k.call('GET', '/sales/orders', k.a.office);
    expect(orders.body.items.map((o: { id: number }) => o.id)).toContain(r.body.sale_order_id);
    expect((await k.call('POST', `/sales/quotes/${quoteId}/send`, k.a.office)).body.code).toBe('QUOTE_STATE_CONFLICT');
  });
});
