/** Hooks of sale and purchase orders and of every document line that takes a product. */
import { userError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import { truthy } from '../../values.js';
import type { Env } from '../env.js';
import { asId, one, rows, tbl } from '../lookup.js';
import type { ModelHooks, Vals } from './hook-types.js';

export interface ProductLineOptions {
  /** Where the price comes from: sales use `list_price`, purchases and vendor bills `standard_price`. */
  price: 'list_price' | 'standard_price';
  /** The line's many2many to account.tax, filled from the product's customer or vendor taxes. */
  taxes: string;
  productTaxes: 'taxes_id' | 'supplier_taxes_id';
  description: 'description_sale' | 'description_purchase';
}

/**
 * What Odoo 15 fills in through the line's product onchange (the UI's, not the ORM's): the label
 * "[code] name" (+ the sales/purchase description), the unit price and the product's taxes. The
 * embedded ERP does it on create for values not given, so an RPC client may send only product_id.
 */
export async function productLineDefaults(env: Env, vals: Vals, o: ProductLineOptions): Promise<void> {
  const product = asId(vals.product_id);
  if (!product) return;
  const p = await one<{ name: string; default_code: string | null; price: number | null; descr: string | null }>(
    env,
    `SELECT name, default_code, ${o.price} AS price, ${o.description} AS descr FROM ${tbl(env, 'product.product')} WHERE id = $1`,
    [product],
  );
  if (!p) return;
  if (!truthy(vals.name))
    vals.name = `${p.default_code ? `[${p.default_code}] ` : ''}${p.name}${p.descr ? `\n${p.descr}` : ''}`;
  if (!('price_unit' in vals)) vals.price_unit = p.price ?? 0;
  if (!(o.taxes in vals)) {
    const rel = env.registry.get('product.product').fields.get(o.productTaxes)!;
    const taxes = await rows<{ id: number }>(
      env,
      `SELECT ${rel.column2} AS id FROM "${env.schema}"."${rel.relationTable}" WHERE ${rel.column1} = $1 ORDER BY 1`,
      [product],
    );
    if (taxes.length) vals[o.taxes] = [[6, 0, taxes.map((t) => t.id)]];
  }
}

/** UserError unless every record of `ids` is in one of `states` (field `state`). */
export async function requireStates(
  env: Env,
  m: ModelDef,
  ids: number[],
  states: string[],
  message: string,
): Promise<void> {
  const bad = await one(
    env,
    `SELECT 1 FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) AND NOT (state = ANY($2::text[]))`,
    [ids, states],
  );
  if (bad) throw userError(message);
}

export const SALE_LINE: ProductLineOptions = {
  price: 'list_price',
  taxes: 'tax_id',
  productTaxes: 'taxes_id',
  description: 'description_sale',
};
export const PURCHASE_LINE: ProductLineOptions = {
  price: 'standard_price',
  taxes: 'taxes_id',
  productTaxes: 'supplier_taxes_id',
  description: 'description_purchase',
};

export const salesHooks: Record<string, ModelHooks> = {
  'sale.order': {
    async prepare(_env, _m, vals, ids) {
      // Odoo computes both addresses from the customer.
      if (ids || !asId(vals.partner_id)) return;
      vals.partner_invoice_id ??= vals.partner_id;
      vals.partner_shipping_id ??= vals.partner_id;
    },
    // Odoo 15 `_unlink_except_draft_or_cancel`.
    beforeUnlink: (env, m, ids) =>
      requireStates(
        env,
        m,
        ids,
        ['draft', 'cancel'],
        'You can not delete a sent quotation or a confirmed sales order. You must first cancel it.',
      ),
  },
  'sale.order.line': {
    async prepare(env, _m, vals, ids) {
      if (!ids) await productLineDefaults(env, vals, SALE_LINE);
    },
  },
  'purchase.order': {
    // Odoo 15 `_unlink_if_cancelled`.
    beforeUnlink: (env, m, ids) =>
      requireStates(env, m, ids, ['cancel'], 'In order to delete a purchase order, you must cancel it first.'),
  },
  'purchase.order.line': {
    async prepare(env, _m, vals, ids) {
      if (!ids) await productLineDefaults(env, vals, PURCHASE_LINE);
    },
  },
};
