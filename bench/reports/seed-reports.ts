/**
 * bench:reports' data: one lead, one order and its paid invoice made through the ERP (so every
 * column holds what the ERP writes), then cloned in bulk with `generate_series` in the ERP's own
 * schema, spread over the days of 2026, each with a source, medium, campaign, form and landing page;
 * 70% of orders confirmed, 70% of invoices paid. Also the plain SQL the bench compares against.
 */
import type { FunnelGroup } from '@platform/contracts/reports.js';
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { invoiceOrder } from '@platform/erp-embedded/testing';

const SOURCES = ['google', 'facebook', 'bing', 'instagram', 'nextdoor', 'yelp', 'newsletter', 'referral'];
const COLUMN: Record<FunnelGroup, string> = {
  source: 'x_form_source',
  utm_source: 'source_id',
  utm_medium: 'medium_id',
  utm_campaign: 'campaign_id',
  landing_page: 'x_lp_slug',
};
const day = (g: string) =>
  `'2026-01-01'::timestamp + ((${g}) % 365) * interval '1 day' + ((${g}) % 600) * interval '1 minute'`;

/** `count` copies of row `id` of `table`, with `over` (column → SQL over the series `g`) replacing columns. */
async function clone(db: Db, schema: string, table: string, id: number, count: number, over: Record<string, string>) {
  const cols = (
    await db.query<{ c: string }>(
      `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name <> 'id'`,
      [schema, table],
    )
  ).rows.map((r) => r.c);
  const values = cols.map((c) => (c in over ? `${over[c]}` : `t."${c}"`));
  await db.query(
    `INSERT INTO "${schema}"."${table}" (${cols.map((c) => `"${c}"`).join(', ')})
     SELECT ${values.join(', ')} FROM "${schema}"."${table}" t, generate_series(0, $2::int - 1) g WHERE t.id = $1`,
    [id, count],
  );
  await db.query(`ANALYZE "${schema}"."${table}"`);
}

export async function seedReports(
  db: Db,
  erp: Erp,
  schema: string,
  n: { leads: number; orders: number; invoices: number },
): Promise<void> {
  const ids = async (model: string, names: string[]) => Promise.all(names.map((name) => erp.create(model, { name })));
  const sources = await ids('utm.source', SOURCES);
  const media = await ids('utm.medium', ['cpc', 'social', 'email', 'organic']);
  const campaigns = await ids('utm.campaign', [
    'spring-shutters',
    'motorised-blinds',
    'brand',
    'retargeting',
    'summer',
  ]);
  const pick = (list: number[], g = 'g') => `(ARRAY[${list.join(',')}])[((${g}) % ${list.length}) + 1]`;
  const attribution = (g = 'g') => ({
    source_id: pick(sources, g),
    medium_id: pick(media, g),
    campaign_id: pick(campaigns, g),
    x_form_source: `'lp_form_' || ((${g}) % 6)`,
    x_lp_slug: `'page-' || ((${g}) % 25)`,
  });
  const lead = await erp.create('crm.lead', { name: 'Template lead' });
  const partner = await erp.create('res.partner', { name: 'Template customer' });
  const product = await erp.create('product.product', { name: 'Roller shade', list_price: 250 });
  const order = await erp.create('sale.order', {
    partner_id: partner,
    order_line: [[0, 0, { name: 'Roller shade', product_id: product, price_unit: 250, product_uom_qty: 1 }]],
  });
  const move = await invoiceOrder(erp, order, '2026-01-01');
  const t = (m: string) => `"${schema}"."${m}"`;
  await clone(db, schema, 'crm_lead', lead, n.leads, {
    name: `'BENCH/' || g`,
    create_date: day('g'),
    ...attribution(),
  });
  const firstLead = (
    await db.query<{ id: number }>(`SELECT min(id) AS id FROM ${t('crm_lead')} WHERE name LIKE 'BENCH/%'`)
  ).rows[0]!.id;
  const amount = `((g * 7919) % 500000 + 100) / 100.0`;
  await clone(db, schema, 'sale_order', order, n.orders, {
    name: `'BENCH/' || g`,
    state: `CASE WHEN g % 10 < 7 THEN 'sale' ELSE 'sent' END`,
    date_order: day('g * 2'),
    amount_total: amount,
    amount_untaxed: amount,
    opportunity_id: `${firstLead} + (g * 2) % ${n.leads}`,
    ...attribution('g * 2'),
  });
  await clone(db, schema, 'account_move', move, n.invoices, {
    name: `'BENCH/' || g`,
    invoice_date: `(${day('g')})::date`,
    date: `(${day('g')})::date`,
    amount_total: amount,
    amount_untaxed: amount,
    amount_residual: `CASE WHEN g % 10 < 7 THEN 0 ELSE ${amount} END`,
    payment_state: `CASE WHEN g % 10 < 7 THEN 'paid' ELSE 'not_paid' END`,
    ...attribution(),
  });
  const line = (await db.query<{ id: number }>(`SELECT id FROM ${t('account_move_line')} WHERE move_id = $1`, [move]))
    .rows[0]!.id;
  const first = (
    await db.query<{ id: number }>(`SELECT min(id) AS id FROM ${t('account_move')} WHERE name LIKE 'BENCH/%'`)
  ).rows[0]!.id;
  // One line per invoice: the line's subtotal is the invoice's amount (no tax on the template).
  await clone(db, schema, 'account_move_line', line, n.invoices, {
    move_id: `${first} + g`,
    price_subtotal: amount,
    price_total: amount,
  });
}

/** The paid customer invoices of [from, to) in cents, summed exactly (numeric). */
export async function paidCents(db: Db, schema: string, from: string, to: string): Promise<number> {
  const r = await db.query<{ c: string }>(
    `SELECT COALESCE(sum(round(amount_total::numeric * 100)), 0)::text AS c FROM "${schema}".account_move
      WHERE move_type = 'out_invoice' AND state = 'posted' AND payment_state IN ('paid', 'in_payment')
        AND invoice_date >= $1::date AND invoice_date < $2::date`,
    [from, to],
  );
  return Number(r.rows[0]!.c);
}

/** The report's aggregates in plain SQL ($1, $2: the range as timestamps), for the baseline. */
export function baselineSql(schema: string, which: FunnelGroup | 'summary'): string {
  const t = (m: string) => `"${schema}".${m}`;
  const paid = `move_type = 'out_invoice' AND state = 'posted' AND payment_state IN ('paid', 'in_payment')`;
  if (which === 'summary')
    return `SELECT (SELECT count(*) FROM ${t('sale_order')} WHERE state IN ('sent', 'sale', 'done') AND date_order >= $1 AND date_order < $2),
      (SELECT count(*) FROM ${t('sale_order')} WHERE state IN ('sale', 'done') AND date_order >= $1 AND date_order < $2),
      (SELECT sum(amount_total) FROM ${t('account_move')} WHERE ${paid} AND invoice_date >= $1::date AND invoice_date < $2::date),
      (SELECT sum(amount_total) FROM ${t('account_move')} WHERE ${paid} AND invoice_date >= '2026-12-01' AND invoice_date < '2027-01-01'),
      (SELECT sum(amount_total) FROM ${t('account_move')} WHERE ${paid} AND invoice_date >= '2026-11-01' AND invoice_date < '2026-12-01')`;
  const c = COLUMN[which];
  return `SELECT 'lead' AS stage, ${c}::text AS k, count(*), 0::float8 AS s FROM ${t('crm_lead')} WHERE create_date >= $1 AND create_date < $2 GROUP BY ${c}
    UNION ALL SELECT 'quote', ${c}::text, count(*), sum(amount_total) FROM ${t('sale_order')} WHERE state IN ('sent', 'sale', 'done') AND date_order >= $1 AND date_order < $2 GROUP BY ${c}
    UNION ALL SELECT 'won', ${c}::text, count(*), 0 FROM ${t('sale_order')} WHERE state IN ('sale', 'done') AND date_order >= $1 AND date_order < $2 GROUP BY ${c}
    UNION ALL SELECT 'paid', ${c}::text, count(*), sum(amount_total) FROM ${t('account_move')} WHERE ${paid} AND invoice_date >= $1::date AND invoice_date < $2::date GROUP BY ${c}
    UNION ALL SELECT 'product', l.product_id::text, count(*), sum(l.price_subtotal) FROM ${t('account_move_line')} l JOIN ${t('account_move')} m ON m.id = l.move_id
      WHERE l.product_id IS NOT NULL AND m.${paid.replace(/ AND /g, ' AND m.')} AND m.invoice_date >= $1::date AND m.invoice_date < $2::date GROUP BY l.product_id`;
}
