/**
 * Invoicing sales orders as Odoo 15 does: `sale.order._create_invoices(grouped, final)` (one draft
 * customer invoice per customer/company/currency from the lines' quantities to invoice, down
 * payments deducted at the end when `final`, a negative result turned into a credit note) and the
 * "Create Invoice" wizard `sale.advance.payment.inv.create_invoices` (regular invoice, or a down
 * payment in percent of the untaxed total or as a fixed amount: a down-payment order line with
 * quantity 0 and its invoice).
 */
import { userError } from '../../errors.js';
import { CARRIED_ATTRIBUTION } from '../../models/sale-attribution.models.js';
import type { Env } from '../env.js';
import { asId, isZero, one, refId, round2, rows, tbl } from '../lookup.js';
import { createRecord, write } from '../write.js';
import { type Action, lockRecords, recordMethod } from './common.js';

interface OrderRow {
  id: number;
  name: string;
  state: string;
  partner_id: number;
  partner_invoice_id: number | null;
  client_order_ref: string | null;
  note: string | null;
  user_id: number | null;
  currency_id: number | null;
  company_id: number;
  amount_untaxed: number;
  /** The lead's attribution the order carries (sale-attribution.models.ts), copied onto its invoices. */
  attribution: Record<string, unknown>;
}
interface LineRow {
  id: number;
  name: string;
  product_id: number | null;
  qty: number;
  price_unit: number;
  discount: number;
  dp: boolean;
  taxes: number[];
}

export const NOTHING_TO_INVOICE =
  'There is nothing to invoice!\n\nReason(s) of this behavior could be:\n' +
  '- You should deliver your products before invoicing them.\n' +
  '- You should modify the invoicing policy of your product: Open the product, go to the "Sales" tab and modify invoicing policy from "delivered quantities" to "ordered quantities".';

async function ordersOf(env: Env, ids: number[]): Promise<OrderRow[]> {
  await lockRecords(env, env.registry.get('sale.order'), ids, ['state']);
  const list = await rows<OrderRow>(
    env,
    `SELECT id, name, state, partner_id, partner_invoice_id, client_order_ref, note, user_id, currency_id,
      company_id, amount_untaxed, json_build_object(${CARRIED_ATTRIBUTION.map((c) => `'${c}', ${c}`).join(', ')}) AS attribution
      FROM ${tbl(env, 'sale.order')} WHERE id = ANY($1::integer[]) ORDER BY id`,
    [ids],
  );
  const bad = list.find((o) => o.state !== 'sale' && o.state !== 'done');
  if (bad) throw userError(`Only confirmed sales orders can be invoiced: ${bad.name} is not confirmed.`);
  return list;
}

async function linesOf(env: Env, order: number): Promise<LineRow[]> {
  const rel = env.registry.get('sale.order.line').fields.get('tax_id')!;
  return rows<LineRow>(
    env,
    `SELECT l.id, l.name, l.product_id, COALESCE(l.qty_to_invoice, 0) AS qty, COALESCE(l.price_unit, 0) AS price_unit,
      COALESCE(l.discount, 0) AS discount, COALESCE(l.is_downpayment, false) AS dp,
      ARRAY(SELECT r."${rel.column2}" FROM "${env.schema}"."${rel.relationTable}" r WHERE r."${rel.column1}" = l.id ORDER BY 1) AS taxes
    FROM ${tbl(env, 'sale.order.line')} l WHERE l.order_id = $1 ORDER BY l.sequence, l.id`,
    [order],
  );
}

/** Odoo's `_prepare_invoice` for an order. */
const invoiceVals = (o: OrderRow): Record<string, unknown> => ({
  move_type: 'out_invoice',
  partner_id: o.partner_invoice_id ?? o.partner_id,
  invoice_origin: o.name,
  ref: o.client_order_ref ?? false,
  narration: o.note ?? false,
  invoice_user_id: o.user_id ?? false,
  currency_id: o.currency_id ?? false,
  company_id: o.company_id,
  // Odoo's utm.mixin: the invoice keeps the order's source, medium and campaign (and here the lead's x_ fields).
  ...Object.fromEntries(CARRIED_ATTRIBUTION.map((c) => [c, o.attribution[c] ?? false])),
});

const lineVals = (l: {
  name: string;
  product_id: number | null;
  qty: number;
  price_unit: number;
  discount: number;
  taxes: number[];
  id: number;
}) => [
  0,
  0,
  {
    name: l.name,
    product_id: l.product_id ?? false,
    quantity: l.qty,
    price_unit: l.price_unit,
    discount: l.discount,
    tax_ids: [[6, 0, l.taxes]],
    sale_line_ids: [[6, 0, [l.id]]],
  },
];

/** Odoo 15 `sale.order._create_invoices(grouped=False, final=False)`: the ids of the draft invoices. */
export async function createInvoices(
  env: Env,
  orderIds: number[],
  opts: { grouped?: boolean; final?: boolean } = {},
): Promise<number[]> {
  const groups = new Map<
    string,
    { vals: Record<string, unknown>; origins: string[]; refs: string[]; lines: unknown[]; orders: number[] }
  >();
  for (const o of await ordersOf(env, orderIds)) {
    // Odoo `_get_invoiceable_lines`: a quantity to invoice, positive (negative only when final); down payments last.
    const lines = (await linesOf(env, o.id)).filter((l) => !isZero(l.qty) && (l.qty > 0 || opts.final));
    if (!lines.some((l) => !l.dp)) continue;
    const ordered = [...lines.filter((l) => !l.dp), ...lines.filter((l) => l.dp)];
    const vals = invoiceVals(o);
    const key = opts.grouped ? `order:${o.id}` : `${o.company_id}/${vals.partner_id}/${o.currency_id}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { vals, origins: [], refs: [], lines: [], orders: [] }));
    g.origins.push(o.name);
    if (o.client_order_ref) g.refs.push(o.client_order_ref);
    g.lines.push(...ordered.map(lineVals));
    g.orders.push(o.id);
  }
  if (!groups.size) throw userError(NOTHING_TO_INVOICE);
  const moveModel = env.registry.get('account.move');
  const moves: number[] = [];
  for (const g of groups.values()) {
    const id = await createRecord(env, moveModel, {
      ...g.vals,
      invoice_origin: g.origins.join(', '),
      ref: g.refs.length ? g.refs.join(', ').slice(0, 2000) : false,
      invoice_line_ids: g.lines,
    });
    for (const order of g.orders)
      await write(env, env.registry.get('sale.order'), [order], { invoice_ids: [[4, id, 0]] });
    moves.push(id);
  }
  if (opts.final) await switchNegativeToRefund(env, moves);
  return moves;
}

/** Odoo `action_switch_invoice_into_refund_credit_note`: a final invoice with a negative total becomes a credit note. */
async function switchNegativeToRefund(env: Env, moves: number[]): Promise<void> {
  const negative = await rows<{ id: number }>(
    env,
    `SELECT id FROM ${tbl(env, 'account.move')} WHERE id = ANY($1::integer[]) AND amount_total < 0`,
    [moves],
  );
  for (const { id } of negative) {
    const lines = await rows<{ id: number; quantity: number }>(
      env,
      `SELECT id, quantity FROM ${tbl(env, 'account.move.line')} WHERE move_id = $1`,
      [id],
    );
    await write(env, env.registry.get('account.move'), [id], {
      move_type: 'out_refund',
      invoice_line_ids: lines.map((l) => [1, l.id, { quantity: -l.quantity }]),
    });
  }
}

interface WizardRow {
  id: number;
  advance_payment_method: string;
  deduct_down_payments: boolean | null;
  product_id: number | null;
  amount: number | null;
  fixed_amount: number | null;
}

/** A down payment for one order: the down-payment order line (quantity 0) and its draft invoice. */
async function downPayment(
  env: Env,
  w: WizardRow,
  o: OrderRow,
  product: { id: number; taxes: number[] },
): Promise<number> {
  const percent = w.advance_payment_method === 'percentage';
  const amount = round2(
    percent ? (Number(o.amount_untaxed) * Number(w.amount ?? 0)) / 100 : Number(w.fixed_amount ?? 0),
  );
  const now = new Date();
  const last = await one<{ seq: number }>(
    env,
    `SELECT max(sequence) AS seq FROM ${tbl(env, 'sale.order.line')} WHERE order_id = $1`,
    [o.id],
  );
  const line = await createRecord(env, env.registry.get('sale.order.line'), {
    order_id: o.id,
    name: `Down Payment: ${String(now.getUTCMonth() + 1).padStart(2, '0')} ${now.getUTCFullYear()}`,
    price_unit: amount,
    product_uom_qty: 0,
    discount: 0,
    product_id: product.id,
    tax_id: [[6, 0, product.taxes]],
    is_downpayment: true,
    sequence: last?.seq !== null && last?.seq !== undefined ? last.seq + 1 : 10,
  });
  const id = await createRecord(env, env.registry.get('account.move'), {
    ...invoiceVals(o),
    invoice_line_ids: [
      lineVals({
        id: line,
        name: percent ? `Down payment of ${Number(w.amount)}%` : 'Down Payment',
        product_id: product.id,
        qty: 1,
        price_unit: amount,
        discount: 0,
        taxes: product.taxes,
      }),
    ],
  });
  await write(env, env.registry.get('sale.order'), [o.id], { invoice_ids: [[4, id, 0]] });
  return id;
}

async function depositProduct(env: Env, w: WizardRow, company: number): Promise<{ id: number; taxes: number[] }> {
  const id = asId(w.product_id) ?? (await refId(env, 'sale.advance_product_0', 'product.product'));
  if (!id) throw userError('Please define a down payment product on the wizard (product_id).');
  const p = (await one<{ type: string; invoice_policy: string | null }>(
    env,
    `SELECT type, invoice_policy FROM ${tbl(env, 'product.product')} WHERE id = $1`,
    [id],
  ))!;
  if (p.invoice_policy !== 'order') {
    throw userError(
      'The product used to invoice a down payment should have an invoice policy set to "Ordered quantities". Please update your deposit product to be able to create a deposit invoice.',
    );
  }
  if (p.type !== 'service')
    throw userError(
      "The product used to invoice a down payment should be of type 'Service'. Please use another product or update this product.",
    );
  const taxes = await rows<{ id: number }>(
    env,
    `SELECT r.tax_id AS id FROM "${env.schema}"."product_taxes_rel" r
      JOIN ${tbl(env, 'account.tax')} t ON t.id = r.tax_id WHERE r.prod_id = $1 AND (t.company_id IS NULL OR t.company_id = $2) ORDER BY 1`,
    [id, company],
  );
  return { id, taxes: taxes.map((t) => t.id) };
}

export const advancePaymentActions: Record<string, Action> = {
  create_invoices: recordMethod(async (env, m, ids) => {
    const rel = m.fields.get('sale_order_ids')!;
    const moves: number[] = [];
    for (const id of ids) {
      const w = (await one<WizardRow>(
        env,
        `SELECT id, advance_payment_method, deduct_down_payments, product_id, amount, fixed_amount
        FROM ${tbl(env, m.name)} WHERE id = $1`,
        [id],
      ))!;
      const orderIds = (
        await rows<{ id: number }>(
          env,
          `SELECT "${rel.column2}" AS id FROM "${env.schema}"."${rel.relationTable}" WHERE "${rel.column1}" = $1 ORDER BY 1`,
          [id],
        )
      ).map((r) => r.id);
      if (!orderIds.length) throw userError('Select the sales orders to invoice (context active_ids).');
      if (w.advance_payment_method === 'delivered') {
        moves.push(...(await createInvoices(env, orderIds, { final: w.deduct_down_payments !== false })));
        continue;
      }
      const value = w.advance_payment_method === 'percentage' ? w.amount : w.fixed_amount;
      if (!(Number(value) > 0)) throw userError('The value of the down payment amount must be positive.');
      for (const o of await ordersOf(env, orderIds))
        moves.push(await downPayment(env, w, o, await depositProduct(env, w, o.company_id)));
    }
    if (env.context.open_invoices) {
      return {
        type: 'ir.actions.act_window',
        name: 'Invoices',
        res_model: 'account.move',
        view_mode: 'tree,form',
        domain: [['id', 'in', moves]],
        ...(moves.length === 1 ? { res_id: moves[0], view_mode: 'form' } : {}),
        context: { default_move_type: 'out_invoice' },
      };
    }
    return { type: 'ir.actions.act_window_close' };
  }),
};
