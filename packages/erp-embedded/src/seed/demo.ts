/**
 * Demo data of a window-covering business (`npm run erp -- seed`): products, customers and vendors,
 * sale orders in every state, invoices draft / posted / partly paid / paid, purchase orders, field
 * service team, workers, locations and orders in every stage. Everything goes through the ORM and
 * the business methods as the administrator (write_date, computed amounts, numbering are real), in
 * one transaction. Idempotent: each record has an external id `platform_demo.*`; a second run finds
 * them and creates nothing.
 */
import type { EmbeddedErp } from '../embedded-erp.js';
import type { Env } from '../orm/env.js';
import { one, refId, tbl } from '../orm/lookup.js';
import { resolveMethod } from '../orm/methods.js';
import { write } from '../orm/write.js';
import { CATEGORIES, COMPANY, CUSTOMERS, PRODUCTS, SALES_TAX, VENDORS } from './demo-data.js';
import { fieldService } from './demo-fieldservice.js';
import { call, day } from './demo-steps.js';
import { Seeder } from './ensure.js';

export const DEMO_MODULE = 'platform_demo';

export interface DemoSummary {
  created: number;
  existing: number;
}

export async function seedDemo(erp: EmbeddedErp, db: string): Promise<DemoSummary> {
  const schema = await erp.schema(db);
  return erp.db.transaction(async (q) => {
    await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`erp-demo:${db}`]);
    const root = erp.env(q, schema, 1, {});
    const admin = (await refId(root, 'base.user_admin', 'res.users')) ?? 1;
    const env = erp.env(q, schema, admin, {});
    const s = await Seeder.load(env, [DEMO_MODULE, 'base', 'product', 'sale', 'fieldservice']);
    await fill(env, s);
    return { created: s.created, existing: s.existing };
  });
}

async function fill(env: Env, s: Seeder): Promise<void> {
  const x = (name: string) => `${DEMO_MODULE}.${name}`;
  const company = s.id('base.main_company');
  const current = await one<{ name: string }>(env, `SELECT name FROM ${tbl(env, 'res.company')} WHERE id = $1`, [
    company,
  ]);
  if (current?.name === 'My Company') {
    await write(env, env.registry.get('res.company'), [company], COMPANY);
    await write(env, env.registry.get('res.partner'), [s.id('base.main_partner')], {
      ...COMPANY,
      vat: false,
      is_company: true,
    });
  }

  const tax = await s.ensure(x('tax_sales'), 'account.tax', SALES_TAX);
  const all = s.id('product.product_category_all');
  for (const [xmlid, name] of Object.entries(CATEGORIES))
    await s.ensure(x(xmlid), 'product.category', { name, parent_id: all });
  const P: Record<string, number> = {};
  for (const p of PRODUCTS) {
    P[p.xmlid] = await s.ensure(x(p.xmlid), 'product.product', {
      name: p.name,
      default_code: p.code,
      categ_id: s.id(x(p.categ)),
      list_price: p.price,
      standard_price: p.cost,
      type: p.service ? 'service' : 'consu',
      description_sale: p.description,
      taxes_id: p.service ? [] : [[6, 0, [tax]]],
    });
  }
  const C: Record<string, number> = {};
  for (const { xmlid, company: isCompany, ...vals } of [...CUSTOMERS, ...VENDORS]) {
    C[xmlid] = await s.ensure(x(xmlid), 'res.partner', { ...vals, is_company: !!isCompany });
  }

  // Sale orders, one per state. Line names, prices and taxes come from the products.
  const lines = (items: [string, number][]) =>
    items.map(([p, qty]) => [0, 0, { product_id: P[p], product_uom_qty: qty }]);
  const order = (xmlid: string, partner: string, items: [string, number][], then?: (id: number) => Promise<unknown>) =>
    s.ensure(x(xmlid), 'sale.order', { partner_id: C[partner], order_line: lines(items), user_id: env.uid }, then);
  await order('so_hartwell', 'partner_hartwell', [
    ['product_roller_shade', 4],
    ['product_installation', 4],
  ]);
  await order(
    'so_chen',
    'partner_chen',
    [
      ['product_cellular_shade', 6],
      ['product_motorized_blind', 1],
      ['product_installation', 7],
    ],
    (id) => call(env, 'sale.order', 'action_quotation_sent', [id]),
  );
  const soOakmont = await order(
    'so_oakmont',
    'partner_oakmont',
    [
      ['product_wood_blind', 12],
      ['product_installation', 12],
    ],
    (id) => call(env, 'sale.order', 'action_confirm', [id]),
  );
  const soRivera = await order(
    'so_rivera',
    'partner_rivera',
    [
      ['product_plantation_shutter', 5],
      ['product_installation', 5],
    ],
    (id) => call(env, 'sale.order', 'action_confirm', [id]),
  );
  const soPatel = await order(
    'so_patel',
    'partner_patel',
    [
      ['product_roman_shade', 3],
      ['product_installation', 3],
    ],
    async (id) => {
      await call(env, 'sale.order', 'action_confirm', [id]);
      await call(env, 'sale.order', 'action_done', [id]);
    },
  );
  const soLakeside = await order(
    'so_lakeside',
    'partner_lakeside',
    [
      ['product_motorized_blind', 8],
      ['product_installation', 8],
    ],
    (id) => call(env, 'sale.order', 'action_cancel', [id]),
  );

  // Customer invoices: draft, posted, partly paid, paid (payments through the Register Payment wizard).
  const soName = async (id: number) =>
    (await one<{ name: string }>(env, `SELECT name FROM ${tbl(env, 'sale.order')} WHERE id = $1`, [id]))!.name;
  const soTotal = async (id: number) =>
    Number(
      (await one<{ t: number }>(env, `SELECT amount_untaxed AS t FROM ${tbl(env, 'sale.order')} WHERE id = $1`, [id]))!
        .t,
    );
  const pay = async (invoice: number, amount: number | undefined, journalCode: string) => {
    const journal = (await one<{ id: number }>(
      env,
      `SELECT id FROM ${tbl(env, 'account.journal')} WHERE code = $1 AND company_id = $2`,
      [journalCode, s.id('base.main_company')],
    ))!.id;
    const wizardEnv = { ...env, context: { active_model: 'account.move', active_ids: [invoice] } };
    const { m, run } = resolveMethod(env, 'account.payment.register', 'create');
    const wizard = await run(wizardEnv, m, [{ journal_id: journal, ...(amount ? { amount } : {}) }], {});
    await call(env, 'account.payment.register', 'action_create_payments', [wizard as number]);
  };
  const invoice = async (
    xmlid: string,
    partner: string,
    so: number | undefined,
    invoiceLines: unknown[],
    after?: (id: number) => Promise<unknown>,
    date = day(-10),
  ) =>
    s.ensure(
      x(xmlid),
      'account.move',
      {
        move_type: 'out_invoice',
        partner_id: C[partner],
        invoice_date: date,
        invoice_origin: so ? await soName(so) : false,
        invoice_line_ids: invoiceLines,
      },
      after,
    );
  const invLines = (items: [string, number][]) => items.map(([p, qty]) => [0, 0, { product_id: P[p], quantity: qty }]);
  await invoice(
    'inv_oakmont',
    'partner_oakmont',
    soOakmont,
    invLines([
      ['product_wood_blind', 12],
      ['product_installation', 12],
    ]),
    undefined,
    day(0),
  );
  const deposit = Math.round((await soTotal(soRivera)) * 0.5 * 100) / 100;
  await invoice(
    'inv_rivera_deposit',
    'partner_rivera',
    soRivera,
    [
      [
        0,
        0,
        { product_id: s.id('sale.advance_product_0'), name: 'Down payment of 50%', quantity: 1, price_unit: deposit },
      ],
    ],
    (id) => call(env, 'account.move', 'action_post', [id]),
    day(-2),
  );
  await invoice(
    'inv_patel',
    'partner_patel',
    soPatel,
    invLines([
      ['product_roman_shade', 3],
      ['product_installation', 3],
    ]),
    async (id) => {
      await call(env, 'account.move', 'action_post', [id]);
      await pay(id, 500, 'BNK1');
    },
    day(-20),
  );
  await invoice(
    'inv_chen_measure',
    'partner_chen',
    undefined,
    invLines([['product_measure', 1]]),
    async (id) => {
      await call(env, 'account.move', 'action_post', [id]);
      await pay(id, undefined, 'CSH1');
    },
    day(-30),
  );

  // Purchase orders: RFQ, confirmed, locked, cancelled.
  const po = (xmlid: string, vendor: string, items: [string, number][], then?: (id: number) => Promise<unknown>) =>
    s.ensure(
      x(xmlid),
      'purchase.order',
      {
        partner_id: C[vendor],
        date_planned: day(14, '12:00:00'),
        user_id: env.uid,
        order_line: items.map(([p, qty]) => [0, 0, { product_id: P[p], product_qty: qty }]),
      },
      then,
    );
  await po('po_skyline_rfq', 'vendor_skyline', [
    ['product_roller_shade', 20],
    ['product_cellular_shade', 12],
  ]);
  await po('po_heritage', 'vendor_heritage', [['product_plantation_shutter', 10]], (id) =>
    call(env, 'purchase.order', 'button_confirm', [id]),
  );
  await po('po_skyline_blinds', 'vendor_skyline', [['product_wood_blind', 24]], async (id) => {
    await call(env, 'purchase.order', 'button_confirm', [id]);
    await call(env, 'purchase.order', 'button_done', [id]);
  });
  await po('po_motion', 'vendor_motion', [['product_motorized_blind', 8]], (id) =>
    call(env, 'purchase.order', 'button_cancel', [id]),
  );

  await fieldService(env, s, x, C, { soOakmont, soRivera, soPatel, soLakeside });
}
