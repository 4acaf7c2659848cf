/**
 * Taxes of quotes come from the tenant's ERP: a grid product's ERP product brings its own taxes, every
 * other line gets the company's default sale tax. The tax the builder computes with the shared
 * function (each tax of each line rounded to the cent) is the ERP order's amount_tax to the cent.
 */
import { quoteTotals } from '@platform/contracts/quote-tax.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

const line = (product_code: string, room: string, width_in: number, mount = 'inside', options: string[] = []) => ({
  product_code,
  room,
  width_in,
  drop_in: 47.125,
  mount,
  colour: 'Linen',
  options,
});

describe('quote taxes from the ERP', () => {
  it('answers no taxes for a tenant whose ERP has none, and its quotes have no tax', async () => {
    const t = await k.call('GET', '/sales/taxes', k.b.office);
    expect(t.status).toBe(200);
    expect(t.body).toEqual({ default: [], products: {} });
    const q = await k.call('POST', '/sales/quotes', k.b.office, {
      customer: { name: 'No Tax' },
      lines: [line('roller-shade', 'Kitchen', 35.5)],
    });
    expect(q.body.amount_tax).toBe(0);
  });

  it("taxes each line with its product's taxes or the company default, as the builder computes them", async () => {
    const erp = k.a.erp.erp;
    const tax = (name: string, amount: number) =>
      erp.create('account.tax', { name, amount, amount_type: 'percent', type_tax_use: 'sale' });
    const state = await tax('State 8.25%', 8.25);
    const halfA = await tax('County 2.5%', 2.5);
    const halfB = await tax('City 2.5%', 2.5);
    const [company] = await erp.search('res.company', [], { limit: 1, order: 'sequence, id' });
    await erp.write('res.company', [company!], { account_sale_tax_id: state });
    // Roller shades are an ERP product with two taxes of their own (each rounded on its own).
    await erp.create('product.product', {
      name: 'Roller Shade',
      default_code: 'roller-shade',
      taxes_id: [[6, 0, [halfA, halfB]]],
    });

    const taxes = (await k.call('GET', '/sales/taxes', k.a.office)).body;
    expect(taxes.default).toEqual([{ id: state, name: 'State 8.25%', amount: 8.25 }]);
    expect(taxes.products['roller-shade'].map((t: { amount: number }) => t.amount)).toEqual([2.5, 2.5]);

    const lines = [
      line('roller-shade', 'Kitchen', 35.5, 'inside', ['motorisation']), // 368
      line('roller-shade', 'Den', 36, 'outside'), // 149: 3.725 + 3.725 → 3.73 + 3.73 (not 7.45)
      line('shutter', 'Bedroom', 30, 'inside', ['z-frame']), // default 8.25%
    ];
    const r = await k.call('POST', '/sales/quotes', k.a.office, { customer: { name: 'Taxed Customer' }, lines });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const builder = quoteTotals(
      taxes,
      r.body.lines.map((l: { product_code: string; subtotal: number }) => ({
        product_code: l.product_code,
        subtotal: l.subtotal,
      })),
    );
    const [order] = await erp.read(
      'sale.order',
      [r.body.sale_order_id],
      ['amount_untaxed', 'amount_tax', 'amount_total'],
    );
    expect(builder.tax).toBeGreaterThan(0);
    expect(order!.amount_tax).toBe(builder.tax);
    expect(order!.amount_total).toBe(builder.total);
    expect(r.body.amount_tax).toBe(builder.tax);
    expect(r.body.amount_total).toBe(builder.total);
    const den = r.body.lines[1];
    expect(den.subtotal).toBe(149);
    const denLine = await erp.searchRead('sale.order.line', [['order_id', '=', r.body.sale_order_id]], {
      fields: ['price_tax'],
      order: 'sequence',
    });
    expect(denLine[1]!.price_tax).toBe(7.46);
  });
});
