import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, startErpTest } from '../testing/scratch-erp.js';

let T: ErpTest;
let customer: number;
let shade: number;
let tax: number;
const amounts = ['amount_untaxed', 'amount_tax', 'amount_total'];

beforeAll(async () => {
  T = await startErpTest('compute');
  customer = await T.x('res.partner', 'create', [{ name: 'Jo Buyer' }]);
  tax = await T.x('account.tax', 'create', [{ name: 'Tax 10%', amount: 10 }]);
  shade = await T.x('product.product', 'create', [
    { name: 'Roller Shade', default_code: 'RS', list_price: 100, standard_price: 40, taxes_id: [[6, 0, [tax]]] },
  ]);
});
afterAll(async () => T?.close());

describe('product defaults', () => {
  it('a new product gets the company default sale tax as its customer taxes (Odoo account), unless told otherwise', async () => {
    const company = (await T.x<{ company_id: [number, string] }[]>('res.users', 'read', [[2], ['company_id']]))[0]!
      .company_id[0];
    const before = await T.x('product.product', 'create', [{ name: 'Before the default' }]);
    await T.x('res.company', 'write', [[company], { account_sale_tax_id: tax }]);
    try {
      const plain = await T.x('product.product', 'create', [{ name: 'Valance' }]);
      const exempt = await T.x('product.product', 'create', [{ name: 'Gift card', taxes_id: [[6, 0, []]] }]);
      const read = await T.x<{ id: number; taxes_id: number[] }[]>('product.product', 'read', [
        [before, plain, exempt],
        ['taxes_id'],
      ]);
      expect(read.map((r) => r.taxes_id)).toEqual([[], [tax], []]);
    } finally {
      await T.x('res.company', 'write', [[company], { account_sale_tax_id: false }]);
    }
  });
});

describe('stored computed amounts', () => {
  it('order amounts follow their lines through create, write and unlink, with discount and taxes', async () => {
    const so = await T.x('sale.order', 'create', [
      {
        partner_id: customer,
        order_line: [
          [0, 0, { product_id: shade, product_uom_qty: 3 }],
          [0, 0, { name: 'Labour', product_uom_qty: 2, price_unit: 45.5 }],
        ],
      },
    ]);
    expect(await T.x('sale.order', 'read', [[so], amounts])).toEqual([
      { id: so, amount_untaxed: 391, amount_tax: 30, amount_total: 421 },
    ]);
    const [l1, l2] = (await T.x<{ order_line: number[] }[]>('sale.order', 'read', [[so], ['order_line']]))[0]!
      .order_line;
    expect(
      await T.x('sale.order.line', 'read', [
        [l1],
        ['name', 'price_unit', 'tax_id', 'price_subtotal', 'price_tax', 'price_total'],
      ]),
    ).toEqual([
      {
        id: l1,
        name: '[RS] Roller Shade',
        price_unit: 100,
        tax_id: [tax],
        price_subtotal: 300,
        price_tax: 30,
        price_total: 330,
      },
    ]);
    await T.x('sale.order.line', 'write', [[l1], { discount: 10 }]);
    expect(await T.x('sale.order', 'read', [[so], amounts])).toEqual([
      { id: so, amount_untaxed: 361, amount_tax: 27, amount_total: 388 },
    ]);
    await T.x('sale.order', 'write', [[so], { order_line: [[2, l2, 0]] }]);
    expect(await T.x('sale.order', 'read', [[so], amounts])).toEqual([
      { id: so, amount_untaxed: 270, amount_tax: 27, amount_total: 297 },
    ]);
    await T.x('sale.order.line', 'write', [[l1], { tax_id: [[5, 0, 0]] }]);
    expect(await T.x('sale.order', 'read', [[so], amounts])).toEqual([
      { id: so, amount_untaxed: 270, amount_tax: 0, amount_total: 270 },
    ]);
    await T.x('sale.order.line', 'unlink', [[l1]]);
    expect(await T.x('sale.order', 'read', [[so], amounts])).toEqual([
      { id: so, amount_untaxed: 0, amount_tax: 0, amount_total: 0 },
    ]);
  });

  it('rounds each line to the cent and sums the rounded lines', async () => {
    const so = await T.x('sale.order', 'create', [
      {
        partner_id: customer,
        order_line: [
          [0, 0, { name: 'a', product_uom_qty: 3, price_unit: 0.335 }],
          [0, 0, { name: 'b', product_uom_qty: 1, price_unit: 10.005, tax_id: [[6, 0, [tax]]] }],
        ],
      },
    ]);
    // 1.005 → 1.01; 10.005 → 10.01, tax 1.001 → 1.00
    expect(await T.x('sale.order', 'read', [[so], amounts])).toEqual([
      { id: so, amount_untaxed: 11.02, amount_tax: 1, amount_total: 12.02 },
    ]);
  });

  it('moving a line to another order recomputes both orders', async () => {
    const [a, b] = await T.x<number[]>('sale.order', 'create', [
      [
        {
          partner_id: customer,
          order_line: [
            [0, 0, { name: 'x', price_unit: 10 }],
            [0, 0, { name: 'y', price_unit: 5 }],
          ],
        },
        { partner_id: customer },
      ],
    ]);
    const [line] = await T.x<number[]>('sale.order.line', 'search', [
      [
        ['order_id', '=', a],
        ['name', '=', 'x'],
      ],
    ]);
    await T.x('sale.order.line', 'write', [[line], { order_id: b }]);
    expect(await T.x('sale.order', 'read', [[a, b], ['amount_total']])).toEqual([
      { id: a, amount_total: 5 },
      { id: b, amount_total: 10 },
    ]);
  });

  it('a line change gives the order a new write_date; a change that leaves the amounts alone does not', async () => {
    const so = await T.x('sale.order', 'create', [
      { partner_id: customer, order_line: [[0, 0, { name: 'x', price_unit: 10 }]] },
    ]);
    const [line] = await T.x<number[]>('sale.order.line', 'search', [[['order_id', '=', so]]]);
    await T.age('sale.order', [so]);
    await T.x('sale.order.line', 'write', [[line], { sequence: 5, name: 'renamed' }]);
    expect(await T.writeDate('sale.order', so)).toBe('2000-01-01 00:00:00');
    await T.x('sale.order.line', 'write', [[line], { price_unit: 12 }]);
    expect(await T.writeDate('sale.order', so)).not.toBe('2000-01-01 00:00:00');
  });

  it('lines copy state, company and customer from their order and follow it', async () => {
    const so = await T.x('sale.order', 'create', [
      { partner_id: customer, order_line: [[0, 0, { name: 'x', price_unit: 1 }]] },
    ]);
    const [line] = await T.x<number[]>('sale.order.line', 'search', [[['order_id', '=', so]]]);
    expect(await T.x('sale.order.line', 'read', [[line], ['state', 'company_id', 'order_partner_id']])).toEqual([
      { id: line, state: 'draft', company_id: [1, 'My Company'], order_partner_id: [customer, 'Jo Buyer'] },
    ]);
    await T.x('sale.order', 'action_confirm', [[so]]);
    expect(await T.x('sale.order.line', 'read', [[line], ['state']])).toEqual([{ id: line, state: 'sale' }]);
  });

  it('computed fields are read-only: fields_get says so, with their dependencies, and writes leave them alone', async () => {
    const f = await T.x<Record<string, Record<string, unknown>>>(
      'sale.order',
      'fields_get',
      [['amount_total', 'partner_id']],
      { attributes: ['readonly', 'depends', 'store'] },
    );
    expect(f.amount_total).toEqual({
      readonly: true,
      store: true,
      depends: ['order_line.price_subtotal', 'order_line.price_tax', 'order_line.price_total'],
    });
    expect(f.partner_id).toMatchObject({ readonly: false, depends: [] });
    const so = await T.x('sale.order', 'create', [
      { partner_id: customer, amount_total: 999, order_line: [[0, 0, { name: 'x', price_unit: 7 }]] },
    ]);
    await T.x('sale.order', 'write', [[so], { amount_total: 1 }]);
    expect(await T.x('sale.order', 'read', [[so], ['amount_total']])).toEqual([{ id: so, amount_total: 7 }]);
  });

  it('purchase orders and invoices compute their amounts the same way (vendor price, no discount on purchase lines)', async () => {
    const po = await T.x('purchase.order', 'create', [
      { partner_id: customer, order_line: [[0, 0, { product_id: shade, product_qty: 2, taxes_id: [[6, 0, [tax]]] }]] },
    ]);
    expect(await T.x('purchase.order', 'read', [[po], amounts])).toEqual([
      { id: po, amount_untaxed: 80, amount_tax: 8, amount_total: 88 },
    ]);
    const inv = await T.x('account.move', 'create', [
      {
        move_type: 'out_invoice',
        partner_id: customer,
        invoice_line_ids: [[0, 0, { product_id: shade, quantity: 2, discount: 50 }]],
      },
    ]);
    expect(await T.x('account.move', 'read', [[inv], [...amounts, 'amount_residual', 'payment_state']])).toEqual([
      {
        id: inv,
        amount_untaxed: 100,
        amount_tax: 10,
        amount_total: 110,
        amount_residual: 110,
        payment_state: 'not_paid',
      },
    ]);
  });
});
