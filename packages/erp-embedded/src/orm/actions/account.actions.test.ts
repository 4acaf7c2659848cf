import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../../testing/scratch-erp.js';

let T: ErpTest;
let customer: number;
let bank: number;
const year = new Date().toISOString().slice(0, 4);
const today = new Date().toISOString().slice(0, 10);

const invoice = (price = 100, vals: Record<string, unknown> = {}) =>
  T.x<number>('account.move', 'create', [
    {
      move_type: 'out_invoice',
      partner_id: customer,
      invoice_line_ids: [[0, 0, { name: 'Shutters', quantity: 1, price_unit: price }]],
      ...vals,
    },
  ]);
const posted = async (price = 100) => {
  const id = await invoice(price);
  await T.x('account.move', 'action_post', [[id]]);
  return id;
};
const money = async (id: number) =>
  (
    await T.x<Record<string, unknown>[]>('account.move', 'read', [
      [id],
      ['amount_total', 'amount_residual', 'payment_state'],
    ])
  )[0];
/** Odoo's Register Payment wizard, as an RPC client drives it. */
const register = async (ids: number[], vals: Record<string, unknown> = {}) => {
  const wizard = await T.x<number>('account.payment.register', 'create', [vals], {
    context: { active_model: 'account.move', active_ids: ids },
  });
  return T.x<Record<string, unknown>>('account.payment.register', 'action_create_payments', [[wizard]]);
};

beforeAll(async () => {
  T = await startErpTest('account');
  customer = await T.x('res.partner', 'create', [{ name: 'Invoice Customer' }]);
  bank = (await T.x<number[]>('account.journal', 'search', [[['code', '=', 'BNK1']]]))[0]!;
});
afterAll(async () => T?.close());

describe('account.move', () => {
  it('seeds the journals Customer Invoices (INV), Bank (BNK1) and Cash (CSH1) of the company', async () => {
    const rows = await T.x<Record<string, unknown>[]>(
      'account.journal',
      'search_read',
      [[['code', 'in', ['INV', 'BNK1', 'CSH1']]]],
      { fields: ['name', 'code', 'type', 'company_id'], order: 'code' },
    );
    expect(rows.map(({ id: _, ...r }) => r)).toEqual([
      { name: 'Bank', code: 'BNK1', type: 'bank', company_id: [1, 'My Company'] },
      { name: 'Cash', code: 'CSH1', type: 'cash', company_id: [1, 'My Company'] },
      { name: 'Customer Invoices', code: 'INV', type: 'sale', company_id: [1, 'My Company'] },
    ]);
  });

  it('is "/" in draft and gets INV/<year>/00001, 00002... when posted, with invoice and due dates', async () => {
    const [a, b] = [await invoice(), await invoice()];
    const [draft] = await T.x<Record<string, unknown>[]>('account.move', 'read', [
      [a],
      ['name', 'state', 'journal_id', 'invoice_date'],
    ]);
    expect(draft).toMatchObject({
      name: '/',
      state: 'draft',
      journal_id: [expect.any(Number), 'Customer Invoices'],
      invoice_date: false,
    });
    await T.age('account.move', [a]);
    expect(await T.x('account.move', 'action_post', [[b, a]])).toBe(false);
    const rows = await T.x<Record<string, unknown>[]>('account.move', 'read', [
      [a, b],
      ['name', 'state', 'invoice_date', 'invoice_date_due', 'write_date'],
    ]);
    expect(rows.map((r) => r.name).sort()).toEqual([`INV/${year}/00001`, `INV/${year}/00002`]);
    expect(rows[0]).toMatchObject({ state: 'posted', invoice_date: today, invoice_date_due: today });
    expect(rows[0]!.write_date).not.toBe('2000-01-01 00:00:00');
    const refund = await invoice(10, { move_type: 'out_refund' });
    await T.x('account.move', 'action_post', [[refund]]);
    expect((await T.x<{ name: string }[]>('account.move', 'read', [[refund], ['name']]))[0]!.name).toBe(
      `RINV/${year}/00001`,
    );
  });

  it('refuses to post a posted invoice, a cancelled one, and one without lines', async () => {
    const inv = await posted();
    await expect(T.x('account.move', 'action_post', [[inv]])).rejects.toMatchObject(
      odoo('UserError', 'is already posted'),
    );
    const cancelled = await invoice();
    await T.x('account.move', 'button_cancel', [[cancelled]]);
    await expect(T.x('account.move', 'action_post', [[cancelled]])).rejects.toMatchObject(
      odoo('UserError', 'cancelled'),
    );
    const empty = await T.x('account.move', 'create', [{ move_type: 'out_invoice', partner_id: customer }]);
    await expect(T.x('account.move', 'action_post', [[empty]])).rejects.toMatchObject(
      odoo('UserError', 'You need to add a line before posting.'),
    );
    const anonymous = await invoice(10, { partner_id: false });
    await expect(T.x('account.move', 'action_post', [[anonymous]])).rejects.toMatchObject(
      odoo('UserError', "The field 'Customer' is required"),
    );
  });

  it('locks a posted invoice until it is reset to draft, which keeps its number', async () => {
    const inv = await posted();
    const [line] = await T.x<number[]>('account.move.line', 'search', [[['move_id', '=', inv]]]);
    await expect(T.x('account.move.line', 'write', [[line], { price_unit: 1 }])).rejects.toMatchObject(
      odoo('UserError'),
    );
    await expect(T.x('account.move', 'write', [[inv], { partner_id: false }])).rejects.toMatchObject(
      odoo('UserError', 'partner_id'),
    );
    await expect(T.x('account.move', 'write', [[inv], { state: 'draft' }])).rejects.toMatchObject(odoo('UserError'));
    expect(await T.x('account.move', 'write', [[inv], { ref: 'PO-7', x_acct_invoice_id: 'acct-123' }])).toBe(true);
    await expect(T.x('account.move', 'unlink', [[inv]])).rejects.toMatchObject(odoo('UserError', 'posted once'));
    expect(await T.x('account.move', 'button_draft', [[inv]])).toBeNull();
    await T.x('account.move.line', 'write', [[line], { price_unit: 50 }]);
    await T.x('account.move', 'action_post', [[inv]]);
    const [r] = await T.x<Record<string, unknown>[]>('account.move', 'read', [
      [inv],
      ['name', 'amount_total', 'x_acct_invoice_id'],
    ]);
    expect(r).toMatchObject({ amount_total: 50, x_acct_invoice_id: 'acct-123' });
    expect(r!.name).toMatch(new RegExp(`^INV/${year}/\\d{5}$`));
    await expect(T.x('account.move', 'button_draft', [[await invoice()]])).rejects.toMatchObject(odoo('UserError'));
  });
});

describe('payments', () => {
  it('a partial payment, then the rest: residual and payment_state follow, payments are numbered in the bank journal', async () => {
    const inv = await posted(1000);
    expect(await money(inv)).toMatchObject({ amount_residual: 1000, payment_state: 'not_paid' });
    await T.age('account.move', [inv]);
    const action = await register([inv], { amount: 400 });
    expect(action).toMatchObject({
      type: 'ir.actions.act_window',
      res_model: 'account.payment',
      view_mode: 'form',
      res_id: expect.any(Number),
    });
    expect(await money(inv)).toMatchObject({ amount_total: 1000, amount_residual: 600, payment_state: 'partial' });
    expect(await T.writeDate('account.move', inv)).not.toBe('2000-01-01 00:00:00');
    const [p] = await T.x<Record<string, unknown>[]>('account.payment', 'read', [
      [action.res_id],
      ['name', 'state', 'amount', 'payment_type', 'journal_id', 'reconciled_invoice_ids', 'partner_id'],
    ]);
    expect(p).toMatchObject({
      state: 'posted',
      amount: 400,
      payment_type: 'inbound',
      journal_id: [bank, 'Bank'],
      reconciled_invoice_ids: [inv],
      partner_id: [customer, 'Invoice Customer'],
    });
    expect(p!.name).toMatch(new RegExp(`^BNK1/${year}/\\d{2}/0001$`));
    await register([inv]); // the wizard's default amount is what is left
    expect(await money(inv)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
    await expect(register([inv], { amount: 1 })).rejects.toMatchObject(odoo('UserError', 'nothing left to pay'));
  });

  it('keeps an over-payment whole, as Odoo 15 does: the invoice is paid and the excess stays open credit', async () => {
    const inv = await posted(100);
    const action = await register([inv], { amount: 100.01 });
    expect(await money(inv)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
    const [p] = await T.x<Record<string, unknown>[]>('account.payment', 'read', [[action.res_id], ['amount', 'state']]);
    expect(p).toMatchObject({ amount: 100.01, state: 'posted' });
    await expect(register([await invoice()])).rejects.toMatchObject(odoo('UserError', 'posted journal entries'));
  });

  it('a payment created directly and posted settles its invoice; resetting it to draft gives the amount back', async () => {
    const inv = await posted(300);
    const pay = await T.x<number>('account.payment', 'create', [
      { partner_id: customer, amount: 300, reconciled_invoice_ids: [[6, 0, [inv]]] },
    ]);
    expect(await T.x('account.payment', 'read', [[pay], ['journal_id', 'state', 'name']])).toEqual([
      { id: pay, journal_id: [bank, 'Bank'], state: 'draft', name: '/' },
    ]);
    expect(await money(inv)).toMatchObject({ payment_state: 'not_paid' });
    await T.x('account.payment', 'action_post', [[pay]]);
    expect(await money(inv)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
    await expect(T.x('account.payment', 'write', [[pay], { amount: 10 }])).rejects.toMatchObject(odoo('UserError'));
    await expect(T.x('account.payment', 'unlink', [[pay]])).rejects.toMatchObject(odoo('UserError'));
    await T.x('account.payment', 'action_draft', [[pay]]);
    expect(await money(inv)).toMatchObject({ amount_residual: 300, payment_state: 'not_paid' });
    await T.x('account.payment', 'write', [[pay], { amount: 301 }]);
    await T.x('account.payment', 'action_post', [[pay]]);
    expect(await money(inv)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
    // Cancelling a payment (reset to draft, then cancel) reopens the invoice.
    await T.x('account.payment', 'action_draft', [[pay]]);
    await T.x('account.payment', 'action_cancel', [[pay]]);
    expect(await money(inv)).toMatchObject({ amount_residual: 300, payment_state: 'not_paid' });
  });

  it('resetting a paid invoice to draft unreconciles its payments', async () => {
    const inv = await posted(80);
    await register([inv]);
    await T.x('account.move', 'button_draft', [[inv]]);
    expect(await money(inv)).toMatchObject({ amount_residual: 80, payment_state: 'not_paid' });
    expect(await T.x('account.payment', 'search_count', [[['reconciled_invoice_ids', 'in', [inv]]]])).toBe(0);
  });

  it('pays several invoices in full, one payment each', async () => {
    const [a, b] = [await posted(10), await posted(20)];
    const action = await register([a, b]);
    expect(action).toMatchObject({
      view_mode: 'tree,form',
      domain: [['id', 'in', [expect.any(Number), expect.any(Number)]]],
    });
    expect([await money(a), await money(b)]).toMatchObject([{ payment_state: 'paid' }, { payment_state: 'paid' }]);
  });
});

describe('taxes and credit notes', () => {
  it('computes a taxed, discounted line with a 4-decimal price to the cent (Odoo rounds per line)', async () => {
    const tax = await T.x<number>('account.tax', 'create', [
      { name: 'Sales 8.25%', amount: 8.25, type_tax_use: 'sale' },
    ]);
    const inv = await invoice(0, {
      invoice_line_ids: [
        [0, 0, { name: 'Blind cord', quantity: 10, price_unit: 16.9915, discount: 10, tax_ids: [[6, 0, [tax]]] }],
      ],
    });
    const [r] = await T.x<Record<string, unknown>[]>('account.move', 'read', [
      [inv],
      ['amount_untaxed', 'amount_tax', 'amount_total'],
    ]);
    expect(r).toMatchObject({ amount_untaxed: 152.92, amount_tax: 12.62, amount_total: 165.54 });
  });

  it('a posted credit note reversing an invoice lowers its residual; a payment of the rest closes it', async () => {
    const inv = await posted(500);
    const refund = await invoice(120, { move_type: 'out_refund', reversed_entry_id: inv });
    expect(await money(inv)).toMatchObject({ amount_residual: 500 });
    await T.x('account.move', 'action_post', [[refund]]);
    expect(await money(inv)).toMatchObject({ amount_residual: 380, payment_state: 'partial' });
    expect(await money(refund)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
    await register([inv], { amount: 380 });
    expect(await money(inv)).toMatchObject({ amount_residual: 0, payment_state: 'paid' });
  });

  it('an invoice settled by credit notes alone is reversed', async () => {
    const inv = await posted(40);
    const refund = await invoice(40, { move_type: 'out_refund', reversed_entry_id: inv });
    await T.x('account.move', 'action_post', [[refund]]);
    expect(await money(inv)).toMatchObject({ amount_residual: 0, payment_state: 'reversed' });
  });
});
