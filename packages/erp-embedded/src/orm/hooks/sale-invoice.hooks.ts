/**
 * Defaults of the "Create Invoice" wizard (Odoo 15 `sale.advance.payment.inv.default_get`): the
 * orders of the context's `active_ids` (when `active_model` is sale.order or absent), their count,
 * whether they have down payments, the down-payment product (`sale.advance_product_0`) and its taxes.
 */
import { truthy } from '../../values.js';
import type { Env } from '../env.js';
import { one, refId, rows, tbl } from '../lookup.js';
import type { ModelHooks, Vals } from './hook-types.js';

/** The ids a many2many value sets or links (`[[6, 0, ids]]`, `[[4, id, 0]]`, plain ids). */
const idsOf = (v: unknown): number[] =>
  Array.isArray(v)
    ? v.flatMap((c: unknown) => {
        if (typeof c === 'number') return [c];
        if (Array.isArray(c) && c[0] === 6 && Array.isArray(c[2]))
          return c[2].filter((x: unknown): x is number => Number.isInteger(x));
        if (Array.isArray(c) && c[0] === 4 && Number.isInteger(c[1])) return [c[1] as number];
        return [];
      })
    : [];

async function prepareWizard(env: Env, vals: Vals): Promise<void> {
  const active = env.context.active_ids;
  const fromContext =
    (env.context.active_model ?? 'sale.order') === 'sale.order' && Array.isArray(active)
      ? active.filter((x): x is number => Number.isInteger(x))
      : [];
  if (!('sale_order_ids' in vals) && fromContext.length) vals.sale_order_ids = [[6, 0, fromContext]];
  const orders = idsOf(vals.sale_order_ids);
  vals.count ??= orders.length;
  if (orders.length) {
    const dp = await one(
      env,
      `SELECT 1 FROM ${tbl(env, 'sale.order.line')} WHERE order_id = ANY($1::integer[]) AND is_downpayment LIMIT 1`,
      [orders],
    );
    vals.has_down_payments = Boolean(dp);
    const first = await one<{ company_id: number; currency_id: number | null }>(
      env,
      `SELECT company_id, currency_id FROM ${tbl(env, 'sale.order')} WHERE id = ANY($1::integer[]) ORDER BY id LIMIT 1`,
      [orders],
    );
    if (first) {
      vals.company_id ??= first.company_id;
      if (first.currency_id) vals.currency_id ??= first.currency_id;
    }
  }
  if (!truthy(vals.product_id)) {
    const product = await refId(env, 'sale.advance_product_0', 'product.product');
    if (product) {
      vals.product_id = product;
      if (!('deposit_taxes_id' in vals)) {
        const taxes = await rows<{ id: number }>(
          env,
          `SELECT tax_id AS id FROM "${env.schema}"."product_taxes_rel" WHERE prod_id = $1 ORDER BY 1`,
          [product],
        );
        vals.deposit_taxes_id = [[6, 0, taxes.map((t) => t.id)]];
      }
    }
  }
}

export const saleInvoiceHooks: Record<string, ModelHooks> = {
  'sale.advance.payment.inv': {
    async prepare(env, _m, vals, ids) {
      if (!ids) await prepareWizard(env, vals);
    },
  },
};
