import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EmbeddedErp } from '../embedded-erp.js';
import { type ErpTest, startErpTest } from '../testing/scratch-erp.js';
import { seedDemo } from './demo.js';

let T: ErpTest;
const MODELS = [
  'res.partner',
  'product.product',
  'sale.order',
  'sale.order.line',
  'account.move',
  'account.move.line',
  'account.payment',
  'purchase.order',
  'fsm.location',
  'fsm.person',
  'fsm.team',
  'fsm.order',
  'ir.model.data',
];
const counts = async () =>
  Object.fromEntries(
    await Promise.all(
      MODELS.map(async (m) => [m, await T.x(m, 'search_count', [[]], { context: { active_test: false } })]),
    ),
  );
const values = async (model: string, field: string) =>
  new Set(
    (await T.x<Record<string, unknown>[]>(model, 'search_read', [[]], { fields: [field] })).map((r) =>
      JSON.stringify(r[field]),
    ),
  );

beforeAll(async () => {
  T = await startErpTest('seed');
});
afterAll(async () => T?.close());

describe('base data of a new database', () => {
  it('has the Down payment product (sale.advance_product_0), a service', async () => {
    const id = await T.ref('sale.advance_product_0');
    expect(await T.x('product.product', 'read', [[id], ['name', 'type', 'invoice_policy', 'categ_id']])).toEqual([
      {
        id,
        name: 'Down payment',
        type: 'service',
        invoice_policy: 'order',
        categ_id: [await T.ref('product.product_category_all'), 'All'],
      },
    ]);
  });

  it('restores missing module data on the first use of an existing database (a database from before a module)', async () => {
    const [bank] = await T.x<number[]>('account.journal', 'search', [[['code', '=', 'BNK1']]]);
    await T.t.db.query(`DELETE FROM erp_seed.account_journal WHERE id = $1`, [bank]);
    await T.t.db.query(`DELETE FROM erp_seed.ir_sequence WHERE code = 'sale.order'`);
    const other = new EmbeddedErp(T.t.db); // another process
    await other.schema('seed');
    expect(await T.x('account.journal', 'search_count', [[['code', '=', 'BNK1']]])).toBe(1);
    expect(await T.x('ir.sequence', 'next_by_code', ['sale.order'])).toBe('S00001');
  });
});

describe('demo data', () => {
  it('seeds a window-covering business with documents in every state', async () => {
    const first = await seedDemo(T.erp, 'seed');
    expect(first.created).toBeGreaterThan(40);
    const names = await values('product.product', 'name');
    for (const kind of [
      'Roller Shade',
      'Cellular Shade',
      'Plantation Shutter',
      'Wood Blind',
      'Roman Shade',
      'Motorized Blind',
      'Installation',
      'Down payment',
    ]) {
      expect([...names].some((n) => n.includes(kind))).toBe(true);
    }
    expect(await values('sale.order', 'state')).toEqual(new Set(['"draft"', '"sent"', '"sale"', '"done"', '"cancel"']));
    const invoices = await T.x<Record<string, unknown>[]>(
      'account.move',
      'search_read',
      [[['move_type', '=', 'out_invoice']]],
      { fields: ['state', 'payment_state'] },
    );
    expect(new Set(invoices.map((i) => `${i.state}/${i.payment_state}`))).toEqual(
      new Set(['draft/not_paid', 'posted/not_paid', 'posted/partial', 'posted/paid']),
    );
    expect(await values('purchase.order', 'state')).toEqual(new Set(['"draft"', '"purchase"', '"done"', '"cancel"']));
    const stages = await T.x<Record<string, unknown>[]>('fsm.order', 'search_read', [[]], { fields: ['stage_id'] });
    expect(new Set(stages.map((o) => (o.stage_id as [number, string])[1]))).toEqual(
      new Set(['New', 'Scheduled', 'In Progress', 'Completed', 'Cancelled']),
    );
    expect(await T.x('res.company', 'read', [[1], ['name']])).toEqual([{ id: 1, name: 'Sunridge Window Coverings' }]);
    const [so] = await T.x<Record<string, unknown>[]>('sale.order', 'search_read', [[['state', '=', 'sale']]], {
      fields: ['amount_total', 'create_uid'],
      limit: 1,
    });
    expect(so).toMatchObject({ create_uid: [2, 'Administrator'] });
    expect(so!.amount_total).toBeGreaterThan(0);
  });

  it('is idempotent: a second run creates nothing and changes nothing', async () => {
    const before = await counts();
    const stamps = await T.x('sale.order', 'search_read', [[]], { fields: ['write_date', 'state'] });
    const again = await seedDemo(T.erp, 'seed');
    expect(again.created).toBe(0);
    expect(again.existing).toBeGreaterThan(40);
    expect(await counts()).toEqual(before);
    expect(await T.x('sale.order', 'search_read', [[]], { fields: ['write_date', 'state'] })).toEqual(stamps);
  });
});
