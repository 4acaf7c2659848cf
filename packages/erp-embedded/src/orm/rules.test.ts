import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../testing/scratch-erp.js';

let T: ErpTest;
let second: number;
let alice: ErpTest['x']; // main company only
let bob: ErpTest['x']; // second company only
let customer: number;
let mainOrder: number;
const denied = (verb: string) =>
  odoo('AccessError', `you are not allowed to ${verb} 'Sales Order' (sale.order) records`);

beforeAll(async () => {
  T = await startErpTest('rules');
  second = await T.x('res.company', 'create', [{ name: 'Second Co' }]);
  const user = (login: string, company: number) =>
    T.x<number>('res.users', 'create', [
      { name: login, login, password: `${login}-pw`, company_id: company, company_ids: [[6, 0, [company]]] },
    ]);
  alice = T.as(await user('alice', 1), 'alice-pw');
  bob = T.as(await user('bob', second), 'bob-pw');
  customer = await T.x('res.partner', 'create', [{ name: 'Shared Customer' }]);
  mainOrder = await T.x('sale.order', 'create', [
    { partner_id: customer, order_line: [[0, 0, { name: 'Shade', price_unit: 10 }]] },
  ]);
});
afterAll(async () => T?.close());

describe('multi-company record rules', () => {
  it('the admin (uid 2) belongs to the main company, and to the companies it creates', async () => {
    expect(await T.x('res.users', 'read', [[2], ['company_id', 'company_ids']])).toEqual([
      { id: 2, company_id: [1, 'My Company'], company_ids: [1, second] },
    ]);
    expect(await T.x('sale.order', 'read', [[mainOrder], ['company_id']])).toEqual([
      { id: mainOrder, company_id: [1, 'My Company'] },
    ]);
  });

  it("a second company's user neither finds nor reads the first company's orders and lines", async () => {
    expect(await bob('sale.order', 'search', [[]])).toEqual([]);
    expect(await bob('sale.order', 'search_count', [[]])).toBe(0);
    expect(await bob('sale.order.line', 'search_read', [[]], { fields: ['name'] })).toEqual([]);
    await expect(bob('sale.order', 'read', [[mainOrder], ['name']])).rejects.toMatchObject(denied('access'));
    await expect(bob('sale.order', 'read', [[987654], ['name']])).rejects.toMatchObject(odoo('MissingError'));
    expect(await alice('sale.order', 'search', [[]])).toEqual([mainOrder]);
  });

  it('nor changes them: write, unlink and business methods are AccessErrors, and nothing moves', async () => {
    await expect(bob('sale.order', 'write', [[mainOrder], { client_order_ref: 'x' }])).rejects.toMatchObject(
      denied('modify'),
    );
    await expect(bob('sale.order', 'unlink', [[mainOrder]])).rejects.toMatchObject(denied('delete'));
    await expect(bob('sale.order', 'action_confirm', [[mainOrder]])).rejects.toMatchObject(denied('modify'));
    expect(await T.x('sale.order', 'read', [[mainOrder], ['state', 'client_order_ref']])).toEqual([
      { id: mainOrder, state: 'draft', client_order_ref: false },
    ]);
  });

  it('records of a user take its company; it cannot create them in a company it does not have', async () => {
    const own = await bob<number>('sale.order', 'create', [{ partner_id: customer }]);
    expect(await bob('sale.order', 'read', [[own], ['company_id']])).toEqual([
      { id: own, company_id: [second, 'Second Co'] },
    ]);
    expect(await alice('sale.order', 'search', [[['id', '=', own]]])).toEqual([]);
    await expect(bob('sale.order', 'create', [{ partner_id: customer, company_id: 1 }])).rejects.toMatchObject(
      denied('create'),
    );
    expect(await T.x('sale.order', 'search_count', [[]])).toBe(2);
  });

  it('records without a company (partners here) are shared', async () => {
    expect(await bob('res.partner', 'read', [[customer], ['name']])).toEqual([
      { id: customer, name: 'Shared Customer' },
    ]);
  });

  it('allowed_company_ids narrows the visible companies and picks the current one; a company the user lacks is refused', async () => {
    const onlySecond = { context: { allowed_company_ids: [second] } };
    const ids = await T.x<number[]>('sale.order', 'search', [[]], onlySecond);
    expect(ids).not.toContain(mainOrder);
    expect(ids).toHaveLength(1);
    const made = await T.x<number>('sale.order', 'create', [{ partner_id: customer }], onlySecond);
    expect(await T.x('sale.order', 'read', [[made], ['company_id']])).toEqual([
      { id: made, company_id: [second, 'Second Co'] },
    ]);
    await expect(T.x('sale.order', 'read', [[mainOrder], ['name']], onlySecond)).rejects.toMatchObject(
      denied('access'),
    );
    expect(
      await T.x<number[]>('sale.order', 'search', [[]], { context: { allowed_company_ids: [1, second] } }),
    ).toContain(mainOrder);
    await expect(bob('sale.order', 'search', [[]], { context: { allowed_company_ids: [1] } })).rejects.toMatchObject(
      odoo('AccessError', 'Access to unauthorized or invalid companies.'),
    );
  });

  it('a user sees only its companies, and its company must be one of them', async () => {
    expect(await bob('res.company', 'search_read', [[]], { fields: ['name'] })).toEqual([
      { id: second, name: 'Second Co' },
    ]);
    const [bobId] = await T.x<number[]>('res.users', 'search', [[['login', '=', 'bob']]]);
    await expect(T.x('res.users', 'write', [[bobId], { company_id: 1 }])).rejects.toMatchObject(
      odoo('ValidationError', 'not in the allowed companies'),
    );
  });

  it('a new company gets its own journals and numbering', async () => {
    const inv = await bob<number>('account.move', 'create', [
      {
        move_type: 'out_invoice',
        partner_id: customer,
        invoice_line_ids: [[0, 0, { name: 'Blind', price_unit: 50 }]],
      },
    ]);
    await bob('account.move', 'action_post', [[inv]]);
    const [r] = await bob<Record<string, unknown>[]>('account.move', 'read', [
      [inv],
      ['name', 'journal_id', 'company_id'],
    ]);
    expect(r).toMatchObject({ name: `INV/${new Date().getUTCFullYear()}/00001`, company_id: [second, 'Second Co'] });
    expect(await alice('account.move', 'search', [[['id', '=', inv]]])).toEqual([]);
  });
});
