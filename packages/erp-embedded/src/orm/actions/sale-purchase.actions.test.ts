import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../../testing/scratch-erp.js';

let T: ErpTest;
let customer: number;
const order = (vals: Record<string, unknown> = {}) =>
  T.x<number>('sale.order', 'create', [
    { partner_id: customer, order_line: [[0, 0, { name: 'Shade', price_unit: 100 }]], ...vals },
  ]);
const state = async (model: string, id: number) =>
  (await T.x<{ state: string }[]>(model, 'read', [[id], ['state']]))[0]!.state;

beforeAll(async () => {
  T = await startErpTest('sales');
  customer = await T.x('res.partner', 'create', [{ name: 'Window Buyer' }]);
});
afterAll(async () => T?.close());

describe('sale.order', () => {
  it('is numbered S00001, S00002... from its sequence, and sets both addresses from the customer', async () => {
    const a = await order();
    const b = await order();
    const rows = await T.x<Record<string, unknown>[]>('sale.order', 'read', [
      [a, b],
      ['name', 'state', 'partner_invoice_id', 'company_id', 'currency_id', 'user_id'],
    ]);
    expect(rows.map((r) => r.name)).toEqual(['S00001', 'S00002']);
    expect(rows[0]).toMatchObject({
      state: 'draft',
      partner_invoice_id: [customer, 'Window Buyer'],
      company_id: [1, 'My Company'],
      currency_id: [1, 'USD'],
      user_id: [2, 'Administrator'],
    });
    expect(await T.x('ir.sequence', 'next_by_code', ['sale.order'])).toBe('S00003');
  });

  it('goes quotation → sent → sales order, each step a new write_date; confirming sets date_order', async () => {
    const so = await order({ date_order: '2020-01-01 10:00:00' });
    await T.age('sale.order', [so]);
    expect(await T.x('sale.order', 'action_quotation_sent', [[so]])).toBe(true);
    expect(await state('sale.order', so)).toBe('sent');
    expect(await T.writeDate('sale.order', so)).not.toBe('2000-01-01 00:00:00');
    await T.age('sale.order', [so]);
    expect(await T.x('sale.order', 'action_confirm', [[so]])).toBe(true);
    const [r] = await T.x<Record<string, string>[]>('sale.order', 'read', [
      [so],
      ['state', 'date_order', 'write_date'],
    ]);
    expect(r).toMatchObject({ state: 'sale' });
    expect(r!.date_order!.slice(0, 4)).not.toBe('2020');
    expect(r!.write_date).not.toBe('2000-01-01 00:00:00');
  });

  it('refuses to confirm a cancelled, confirmed or locked order with a UserError, and changes nothing', async () => {
    const so = await order();
    await T.x('sale.order', 'action_cancel', [[so]]);
    await T.age('sale.order', [so]);
    await expect(T.x('sale.order', 'action_confirm', [[so]])).rejects.toMatchObject(
      odoo('UserError', 'It is not allowed to confirm an order'),
    );
    expect(await state('sale.order', so)).toBe('cancel');
    expect(await T.writeDate('sale.order', so)).toBe('2000-01-01 00:00:00');
    const done = await order();
    await T.x('sale.order', 'action_confirm', [[done]]);
    await expect(T.x('sale.order', 'action_confirm', [[done]])).rejects.toMatchObject(odoo('UserError'));
    await T.x('sale.order', 'action_done', [[done]]);
    await expect(T.x('sale.order', 'action_confirm', [[done]])).rejects.toMatchObject(
      odoo('UserError', 'done, cancel'),
    );
  });

  it('refuses the whole call when one of the orders cannot move', async () => {
    const [ok, cancelled] = [await order(), await order()];
    await T.x('sale.order', 'action_cancel', [[cancelled]]);
    await expect(T.x('sale.order', 'action_confirm', [[ok, cancelled]])).rejects.toMatchObject(odoo('UserError'));
    expect(await state('sale.order', ok)).toBe('draft');
  });

  it('cancels, sets back to quotation, and refuses to cancel a locked order; cancelling twice is harmless', async () => {
    const so = await order();
    await T.x('sale.order', 'action_confirm', [[so]]);
    await T.x('sale.order', 'action_cancel', [[so]]);
    expect(await T.x('sale.order', 'action_cancel', [[so]])).toBe(true);
    await T.x('sale.order', 'action_draft', [[so]]);
    expect(await state('sale.order', so)).toBe('draft');
    await expect(T.x('sale.order', 'action_draft', [[so]])).rejects.toMatchObject(odoo('UserError'));
    await expect(T.x('sale.order', 'action_quotation_sent', [[await order({ partner_id: customer })]])).resolves.toBe(
      true,
    );
    const locked = await order();
    await T.x('sale.order', 'action_confirm', [[locked]]);
    await T.x('sale.order', 'action_done', [[locked]]);
    await expect(T.x('sale.order', 'action_cancel', [[locked]])).rejects.toMatchObject(odoo('UserError', 'locked'));
    await T.x('sale.order', 'action_unlock', [[locked]]);
    expect(await state('sale.order', locked)).toBe('sale');
  });

  it('only draft or cancelled orders can be deleted', async () => {
    const so = await order();
    await T.x('sale.order', 'action_confirm', [[so]]);
    await expect(T.x('sale.order', 'unlink', [[so]])).rejects.toMatchObject(
      odoo('UserError', 'You must first cancel it'),
    );
    await T.x('sale.order', 'action_cancel', [[so]]);
    expect(await T.x('sale.order', 'unlink', [[so]])).toBe(true);
  });

  it('record methods take the ids first like Odoo: unknown ids are a MissingError, a partner is required', async () => {
    await expect(T.x('sale.order', 'action_confirm', [[987654]])).rejects.toMatchObject(odoo('MissingError'));
    await expect(T.x('sale.order', 'create', [{ order_line: [] }])).rejects.toMatchObject(
      odoo('ValidationError', 'partner_id'),
    );
    await expect(T.x('sale.order', 'action_frobnicate', [[1]])).rejects.toMatchObject({
      odooName: 'builtins.AttributeError',
    });
  });
});

describe('purchase.order', () => {
  const rfq = () =>
    T.x<number>('purchase.order', 'create', [
      { partner_id: customer, order_line: [[0, 0, { name: 'Fabric', product_qty: 2, price_unit: 30 }]] },
    ]);

  it('is numbered P00001 and confirmed from draft to purchase with a confirmation date', async () => {
    const po = await rfq();
    await T.age('purchase.order', [po]);
    expect(await T.x('purchase.order', 'button_confirm', [[po]])).toBe(true);
    const [r] = await T.x<Record<string, unknown>[]>('purchase.order', 'read', [
      [po],
      ['name', 'state', 'date_approve', 'amount_total', 'write_date'],
    ]);
    expect(r).toMatchObject({ name: 'P00001', state: 'purchase', amount_total: 60 });
    expect(r!.date_approve).toMatch(/^\d{4}-\d{2}-\d{2} /);
    expect(r!.write_date).not.toBe('2000-01-01 00:00:00');
    await expect(T.x('purchase.order', 'button_confirm', [[po]])).rejects.toMatchObject(odoo('UserError'));
  });

  it('cancels, goes back to draft, locks, and only a cancelled order can be deleted', async () => {
    const po = await rfq();
    await expect(T.x('purchase.order', 'button_draft', [[po]])).rejects.toMatchObject(odoo('UserError'));
    expect(await T.x('purchase.order', 'button_cancel', [[po]])).toBeNull();
    expect(await T.x('purchase.order', 'button_draft', [[po]])).toEqual({});
    await expect(T.x('purchase.order', 'unlink', [[po]])).rejects.toMatchObject(
      odoo('UserError', 'you must cancel it first'),
    );
    await T.x('purchase.order', 'button_confirm', [[po]]);
    await T.x('purchase.order', 'button_done', [[po]]);
    expect(await state('purchase.order', po)).toBe('done');
    await expect(T.x('purchase.order', 'button_cancel', [[po]])).rejects.toMatchObject(odoo('UserError', 'locked'));
    await T.x('purchase.order', 'button_unlock', [[po]]);
    await T.x('purchase.order', 'button_cancel', [[po]]);
    expect(await T.x('purchase.order', 'unlink', [[po]])).toBe(true);
  });
});
