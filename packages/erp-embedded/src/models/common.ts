/**
 * Field and compute building blocks shared by the business models: the company / currency fields,
 * line amounts (quantity × price, discount, percent taxes), totals summed from lines, and related
 * fields copied from a parent (Odoo `related=..., store=True`).
 */
import { f } from '../fields.js';
import { round2, rows, tbl } from '../orm/lookup.js';
import type { ComputedRow, ComputeSpec } from '../registry.js';
import { qi, qt } from '../schema.js';
import { selectExpr } from '../values.js';

/** `company_id` defaulting to the caller's current company (Odoo `env.company`). */
export const companyField = (required = false) =>
  f.many2one('res.company', 'Company', { required, defaultFn: ({ company }) => company });

/** `currency_id`; a new record without one takes its company's currency (orm/hooks). */
export const currencyField = () => f.many2one('res.currency', 'Currency');

/** A many2many to account.tax kept in `relationTable`: `column1` names this side, `account_tax_id` the tax. */
export const taxesField = (string: string, relationTable: string, column1: string) =>
  f.many2many('account.tax', string, f.relTable(relationTable, column1, 'account_tax_id'));

/** What sale and purchase orders end with: company, currency, lines and the totals `documentAmounts('order_line')` sums. */
export const orderTotalsFields = (lineModel: string) => ({
  company_id: companyField(true),
  currency_id: currencyField(),
  order_line: f.one2many(lineModel, 'order_id', 'Order Lines'),
  amount_untaxed: f.monetary('Untaxed Amount'),
  amount_tax: f.monetary('Taxes'),
  amount_total: f.monetary('Total'),
});

/** What sale and purchase order lines start with: their order, place, description and product. */
export const orderLineHeadFields = (orderModel: string) => ({
  order_id: f.many2one(orderModel, 'Order Reference', { required: true, ondelete: 'cascade' }),
  sequence: f.integer('Sequence', { default: 10 }),
  name: f.text('Description', { required: true }),
  product_id: f.many2one('product.product', 'Product', { ondelete: 'restrict' }),
});

export interface LineAmountsOptions {
  qty: string;
  /** many2many to account.tax. */
  taxes: string;
  discount?: boolean;
  /** Also store the tax amount in `price_tax` (sale and purchase lines; Odoo's move lines have none). */
  priceTax?: boolean;
}

/**
 * `price_subtotal` = round(qty × price_unit × (1 − discount/100)), `price_tax` = the sum over the
 * line's percent taxes of round(subtotal × amount / 100), `price_total` = subtotal + tax: Odoo 15's
 * `compute_all` with the default `round_per_line` rounds each tax of each line to the cent.
 */
export function lineAmounts(o: LineAmountsOptions): ComputeSpec {
  return {
    fields: ['price_subtotal', ...(o.priceTax === false ? [] : ['price_tax']), 'price_total'],
    depends: [o.qty, 'price_unit', o.taxes, ...(o.discount ? ['discount'] : [])],
    async compute(env, ids, m) {
      const tax = m.fields.get(o.taxes)!;
      const pct = `COALESCE((SELECT array_agg(x.amount ORDER BY x.sequence, x.id) FROM ${qt(env.schema, tax.relationTable!)} r
        JOIN ${tbl(env, 'account.tax')} x ON x.id = r.${qi(tax.column2!)}
        WHERE r.${qi(tax.column1!)} = l.id AND x.amount_type = 'percent'), '{}')`;
      const list = await rows<{
        id: number;
        qty: number | null;
        price: number | null;
        disc: number | null;
        pct: (number | string)[];
      }>(
        env,
        `SELECT l.id, l.${qi(o.qty)} AS qty, l.price_unit AS price, ${o.discount ? 'l.discount' : '0'} AS disc, ${pct} AS pct
           FROM ${tbl(env, m.name)} l WHERE l.id = ANY($1::integer[])`,
        [ids],
      );
      return list.map((r) => {
        const subtotal = round2((r.qty ?? 0) * (r.price ?? 0) * (1 - (r.disc ?? 0) / 100));
        const taxAmount = round2(
          r.pct.reduce<number>((sum, amount) => sum + round2((subtotal * Number(amount)) / 100), 0),
        );
        const row: ComputedRow = { id: r.id, price_subtotal: subtotal, price_total: round2(subtotal + taxAmount) };
        if (o.priceTax !== false) row.price_tax = taxAmount;
        return row;
      });
    },
  };
}

/** The three document amounts summed from the lines of the one2many `lines`. */
export const documentAmounts = (lines: string): ComputeSpec =>
  sumLines(lines, {
    amount_untaxed: 'price_subtotal',
    amount_tax: 'price_tax',
    amount_total: 'price_total',
  });

/** Stored sums of line fields: `{ target: lineField }` over the one2many `o2m`. */
export function sumLines(o2m: string, sums: Record<string, string>): ComputeSpec {
  return {
    fields: Object.keys(sums),
    depends: Object.values(sums).map((s) => `${o2m}.${s}`),
    async compute(env, ids, m) {
      const fd = m.fields.get(o2m)!;
      const cols = Object.entries(sums).map(([t, s]) => `COALESCE(sum(l.${qi(s)}), 0) AS ${qi(t)}`);
      const list = await rows<ComputedRow>(
        env,
        `SELECT p.id, ${cols.join(', ')} FROM ${tbl(env, m.name)} p
           LEFT JOIN ${tbl(env, fd.relation!)} l ON l.${qi(fd.inverseName!)} = p.id
          WHERE p.id = ANY($1::integer[]) GROUP BY p.id`,
        [ids],
      );
      return list.map(
        (r) =>
          Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'id' ? v : round2(Number(v))])) as ComputedRow,
      );
    },
  };
}

/**
 * Fields copied from the record the many2one `via` points at: `{ target: parentField }`. With
 * `touch: false` (Odoo's related fields that are not stored) a copied change leaves `write_date`.
 */
export function related(via: string, pairs: Record<string, string>, opts: { touch?: boolean } = {}): ComputeSpec {
  return {
    ...opts,
    fields: Object.keys(pairs),
    depends: Object.values(pairs).map((p) => `${via}.${p}`),
    async compute(env, ids, m) {
      const fd = m.fields.get(via)!;
      const parent = env.registry.get(fd.relation!);
      // Dates travel as text, as everywhere in the ORM (no driver Date objects, no time zone shifts).
      const cols = Object.entries(pairs).map(([t, p]) => `${selectExpr('p', parent.fields.get(p)!)} AS ${qi(t)}`);
      return rows<ComputedRow>(
        env,
        `SELECT c.id, ${cols.join(', ')} FROM ${tbl(env, m.name)} c
           LEFT JOIN ${tbl(env, fd.relation!)} p ON p.id = c.${qi(via)} WHERE c.id = ANY($1::integer[])`,
        [ids],
      );
    },
  };
}
