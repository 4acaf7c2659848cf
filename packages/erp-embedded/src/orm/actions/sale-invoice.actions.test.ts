import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../../testing/scratch-erp.js';

let T: ErpTest;
let customer: number;
let tax: number;
type Rec = Record<string, any>;

/** A confirmed order: 2 × 100 + 1 × 300, 10% tax (untaxed 500, total 550). */
async function confirmedOrder(partner = customer): Promise<number> {
  const so = await T.x<number>('sale.order', 'create', [
    {
      partner_id: partner,
      order_line: [
        [0, 0, { name: 'Roller shade', price_unit: 100, product_uom_qty: 2, tax_id: [[6, 0, [tax]]] }],
        [0, 0, { name: 'Shutter', price_unit: 300, product_uom_qty: 1, tax_id: [[6, 0, [tax]]] }],
      ],
    },
  ]);
  await T.x('sale.order', 'action_confirm', [[so]]);
  return so;
}
const wizard = async (orders: number[], vals: Rec = {}) => {
  const id = await T.x<number>('sale.advance.payment.inv', 'create', [vals], {
    context: { active_model: 'sale.order', active_ids: orders },
  });
  return T.x('sale.advance.payment.inv', 'create_invoices', [[id]]);
};
/** The order, its invoice_ids oldest first (read gives account.move's order: newest first). */
const orderOf = async (so: number): Promise<Rec> => {
  const [o] = await T.x<Rec[]>('sale.order', 'read', [
    [so],
    ['invoice_ids', 'invoice_count', 'invoice_status', 'order_line'],
  ]);
  return { ...o!, invoice_ids: [...o!.invoice_ids].sort((a: number, b: number) => a - b) };
};
const linesOf = (ids: number[]) =>
  T.x<Rec[]>('sale.order.line', 'read', [
    ids,
    ['name', 'qty_invoiced', 'qty_to_invoice', 'invoice_status', 'is_downpayment', 'price_unit', 'product_uom_qty'],
  ]);
const invoice = async (id: number): Promise<Rec> => {
  const [m] = await T.x<Rec[]>('account.move', 'read', [
    [id],
    ['move_type', 'state', 'partner_id', 'invoice_origin', 'amount_untaxed', 'amount_total', 'invoice_line_ids'],
  ]);
  const lines = await T.x<Rec[]>('account.move.line', 'read', [
    m!.invoice_line_ids,
    ['name', 'quantity', 'price_unit', 'tax_ids', 'sale_line_ids'],
  ]);
  return { ...m!, lines };
};

beforeAll(async () => {
  T = await startErpTest('saleinv');
  customer = await T.x('res.partner', 'create', [{ name: 'Invoice Buyer' }]);
  tax = await T.x('account.tax', 'create', [{ name: 'Tax 10%', amount: 10 }]);
}, 120_000);
afterAll(async () => T?.close());

describe('Create Invoice wizard (sale.advance.payment.inv)', () => {
  it('a regular invoice takes every quantity to invoice; the order becomes fully invoiced', async () => {
    const so = await confirmedOrder();
    expect((await orderOf(so)).invoice_status).toBe('to invoice');
    expect(await wizard([so])).toEqual({ type: 'ir.actions.act_window_close' });
    const o = await orderOf(so);
    expect(o).toMatchObject({ invoice_count: 1, invoice_status: 'invoiced' });
    const inv = await invoice(o.invoice_ids[0]);
    expect(inv).toMatchObject({
      move_type: 'out_invoice',
      state: 'draft',
      partner_id: [customer, 'Invoice Buyer'],
      amount_untaxed: 500,
      amount_total: 550,
    });
    expect(inv.invoice_origin).toMatch(/^S\d{5}$/);
    expect(inv.lines.map((l: Rec) => [l.name, l.quantity, l.price_unit, l.tax_ids])).toEqual([
      ['Roller shade', 2, 100, [tax]],
      ['Shutter', 1, 300, [tax]],
    ]);
    expect(inv.lines.flatMap((l: Rec) => l.sale_line_ids)).toEqual(o.order_line);
    expect((await linesOf(o.order_line)).map((l) => [l.qty_invoiced, l.qty_to_invoice, l.invoice_status])).toEqual([
      [2, 0, 'invoiced'],
      [1, 0, 'invoiced'],
    ]);
    await expect(wizard([so])).rejects.toMatchObject(odoo('UserError', 'There is nothing to invoice!'));
  });

  it('a percentage down payment invoices that share of the untaxed total, then the final invoice deducts it', async () => {
    const so = await confirmedOrder();
    await wizard([so], { advance_payment_method: 'percentage', amount: 40 });
    let o = await orderOf(so);
    const dp = await invoice(o.invoice_ids[0]);
    expect(dp).toMatchObject({ amount_untaxed: 200, amount_total: 200 });
    expect(dp.lines.map((l: Rec) => [l.name, l.quantity, l.price_unit])).toEqual([['Down payment of 40%', 1, 200]]);
    const lines = await linesOf(o.order_line);
    const dpLine = lines.find((l) => l.is_downpayment)!;
    expect(dpLine).toMatchObject({
      product_uom_qty: 0,
      price_unit: 200,
      qty_invoiced: 1,
      qty_to_invoice: -1,
      invoice_status: 'to invoice',
    });
    expect(dpLine.name).toMatch(/^Down Payment: \d{2} \d{4}$/);

    await wizard([so]);
    o = await orderOf(so);
    expect(o).toMatchObject({ invoice_count: 2, invoice_status: 'invoiced' });
    const final = await invoice(o.invoice_ids[1]);
    expect(final.lines.map((l: Rec) => [l.name, l.quantity, l.price_unit])).toEqual([
      ['Roller shade', 2, 100],
      ['Shutter', 1, 300],
      [dpLine.name, -1, 200],
    ]);
    expect(final).toMatchObject({ move_type: 'out_invoice', amount_untaxed: 300, amount_total: 350 });
  });

  it('a fixed down payment; without deducting, the final invoice leaves the down payment to invoice', async () => {
    const so = await confirmedOrder();
    await wizard([so], { advance_payment_method: 'fixed', fixed_amount: 75 });
    const dp = await invoice((await orderOf(so)).invoice_ids[0]);
    expect(dp.lines.map((l: Rec) => [l.name, l.price_unit])).toEqual([['Down Payment', 75]]);
    await wizard([so], { deduct_down_payments: false });
    const o = await orderOf(so);
    const final = await invoice(o.invoice_ids[1]);
    expect(final.amount_untaxed).toBe(500);
    expect(o.invoice_status).toBe('to invoice');
  });

  it('groups the orders of one customer into one invoice', async () => {
    const [a, b] = [await confirmedOrder(), await confirmedOrder()];
    await wizard([a, b]);
    const [oa, ob] = [await orderOf(a), await orderOf(b)];
    expect(oa.invoice_ids).toEqual(ob.invoice_ids);
    const inv = await invoice(oa.invoice_ids[0]);
    expect(inv.amount_untaxed).toBe(1000);
    expect(inv.invoice_origin.split(', ')).toHaveLength(2);
  });

  it('deleting or cancelling a draft invoice puts the quantities back to invoice', async () => {
    const so = await confirmedOrder();
    await wizard([so]);
    const [inv] = (await orderOf(so)).invoice_ids;
    await T.x('account.move', 'button_cancel', [[inv]]);
    expect(await orderOf(so)).toMatchObject({ invoice_status: 'to invoice' });
    const so2 = await confirmedOrder();
    await wizard([so2]);
    await T.x('account.move', 'unlink', [(await orderOf(so2)).invoice_ids]);
    expect(await orderOf(so2)).toMatchObject({ invoice_count: 0, invoice_status: 'to invoice' });
  });

  it('refuses a down payment that is not positive, a draft order, and a deposit product that is not a service', async () => {
    const so = await confirmedOrder();
    await expect(wizard([so], { advance_payment_method: 'percentage', amount: 0 })).rejects.toMatchObject(
      odoo('UserError', 'must be positive'),
    );
    await expect(wizard([so], { advance_payment_method: 'fixed', fixed_amount: -5 })).rejects.toMatchObject(
      odoo('UserError', 'must be positive'),
    );
    const draft = await T.x<number>('sale.order', 'create', [
      { partner_id: customer, order_line: [[0, 0, { name: 'X', price_unit: 1 }]] },
    ]);
    await expect(wizard([draft])).rejects.toMatchObject(odoo('UserError', 'not confirmed'));
    const goods = await T.x('product.product', 'create', [
      { name: 'Deposit goods', type: 'consu', invoice_policy: 'order' },
    ]);
    await expect(
      wizard([so], { advance_payment_method: 'fixed', fixed_amount: 10, product_id: goods }),
    ).rejects.toMatchObject(odoo('UserError', "of type 'Service'"));
    expect((await orderOf(so)).invoice_count).toBe(0);
  });

  it('a copy of an invoiced order is not invoiced', async () => {
    const so = await confirmedOrder();
    await wizard([so]);
    const copy = await T.x<number>('sale.order', 'copy', [[so]]);
    await T.x('sale.order', 'action_confirm', [[copy]]);
    expect(await orderOf(copy)).toMatchObject({ invoice_ids: [], invoice_count: 0, invoice_status: 'to invoice' });
    expect((await linesOf((await orderOf(copy)).order_line)).map((l) => l.qty_invoiced)).toEqual([0, 0]);
  });

  it('keeps _create_invoices private over RPC, as Odoo does', async () => {
    await expect(T.x('sale.order', '_create_invoices', [[1]])).rejects.toMatchObject(
      odoo('AccessError', 'Private methods'),
    );
  });
});
