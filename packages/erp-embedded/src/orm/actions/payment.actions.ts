/**
 * account.payment methods and the Register Payment wizard's `action_create_payments`. Posting a
 * payment reconciled with an invoice lowers the invoice's amount_residual (partial, then paid); a
 * payment larger than the amount due is accepted whole, as in Odoo 15: the invoice is paid and the
 * excess stays the partner's outstanding credit.
 */
import { userError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { checkPayable, INBOUND_TYPES, invoicesToPay } from '../hooks/payment.hooks.js';
import { isZero, one, rows, tbl } from '../lookup.js';
import { type JournalInfo, nextJournalName } from '../sequence.js';
import { createRecord, write } from '../write.js';
import { type Action, lockRecords, recordMethod, transitionMethod } from './common.js';

interface PaymentRow {
  id: number;
  state: string;
  amount: number;
  payment_type: string;
  journal_id: number;
  company_id: number;
  date: string;
}

/** Checks the payment against its invoice (locked: concurrent payments wait), numbers it and posts it. */
async function postPayments(env: Env, m: ModelDef, ids: number[]): Promise<null> {
  await lockRecords(env, m, ids, ['state']);
  const pays = await rows<PaymentRow>(
    env,
    `SELECT id, state, amount, payment_type, journal_id, company_id,
      to_char(date, 'YYYY-MM-DD') AS date FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) ORDER BY id`,
    [ids],
  );
  const rel = m.fields.get('reconciled_invoice_ids')!;
  for (const p of pays) {
    if (p.state !== 'draft') throw userError('Only a draft payment can be posted.');
    if (!(Number(p.amount) > 0)) throw userError('The payment amount must be strictly positive.');
    const journal = (await one<JournalInfo>(
      env,
      `SELECT id, code, type FROM ${tbl(env, 'account.journal')} WHERE id = $1`,
      [p.journal_id],
    ))!;
    if (journal.type !== 'bank' && journal.type !== 'cash')
      throw userError('A payment must be registered on a bank or cash journal.');
    const invoice = await one<{ id: number }>(
      env,
      `SELECT ${rel.column2} AS id FROM "${env.schema}"."${rel.relationTable}" WHERE ${rel.column1} = $1`,
      [p.id],
    );
    if (invoice) {
      await env.q.query(`SELECT id FROM ${tbl(env, 'account.move')} WHERE id = $1 FOR UPDATE`, [invoice.id]);
      const [inv] = await invoicesToPay(env, [invoice.id]);
      checkPayable([inv!]);
      if (INBOUND_TYPES.includes(inv!.move_type) !== (p.payment_type === 'inbound')) {
        throw userError(`The payment direction (${p.payment_type}) does not match ${inv!.name}.`);
      }
      if (inv!.company_id !== p.company_id)
        throw userError("You can't create payments for entries belonging to different companies.");
    }
    await write(env, m, [p.id], { state: 'posted', ...(await nextJournalName(env, m.name, journal, p.date, false)) });
  }
  return null;
}

interface WizardRow {
  id: number;
  amount: number;
  communication: string | null;
  journal_id: number | null;
  payment_type: string;
  partner_type: string;
  currency_id: number | null;
  payment_date: string;
}

/** Odoo 15 `action_create_payments`: one payment per invoice (no grouping), posted, with Odoo's window action. */
async function createPayments(env: Env, m: ModelDef, ids: number[]): Promise<unknown> {
  const [w] = await lockRecords<{ id: number }>(env, m, ids.slice(0, 1), ['id']);
  if (!w) return true;
  const wiz = (await one<WizardRow>(
    env,
    `SELECT id, amount, communication, journal_id, payment_type, partner_type, currency_id,
      to_char(payment_date, 'YYYY-MM-DD') AS payment_date FROM ${tbl(env, m.name)} WHERE id = $1`,
    [w.id],
  ))!;
  const rel = m.fields.get('invoice_ids')!;
  const invIds = (
    await rows<{ id: number }>(
      env,
      `SELECT ${rel.column2} AS id FROM "${env.schema}"."${rel.relationTable}" WHERE ${rel.column1} = $1 ORDER BY 1`,
      [w.id],
    )
  ).map((r) => r.id);
  const invoices = (await invoicesToPay(env, invIds)).filter(
    (i) => !isZero(Number(i.amount_residual)) || invIds.length === 1,
  );
  checkPayable(invoices);
  if (
    invoices.length > 1 &&
    !isZero(Number(wiz.amount) - invoices.reduce((s, i) => s + Number(i.amount_residual), 0))
  ) {
    throw userError(
      'Several invoices are paid in full, one payment each: register a partial payment invoice by invoice.',
    );
  }
  const payments = env.registry.get('account.payment');
  const created: number[] = [];
  for (const inv of invoices) {
    const id = await createRecord(env, payments, {
      payment_type: wiz.payment_type,
      partner_type: wiz.partner_type,
      partner_id: inv.partner_id ?? false,
      amount: invoices.length === 1 ? Number(wiz.amount) : Number(inv.amount_residual),
      date: wiz.payment_date,
      journal_id: wiz.journal_id ?? false,
      ref: invoices.length === 1 ? (wiz.communication ?? inv.name) : inv.name,
      currency_id: wiz.currency_id ?? inv.currency_id ?? false,
      reconciled_invoice_ids: [[6, 0, [inv.id]]],
    });
    await postPayments(env, payments, [id]);
    created.push(id);
  }
  await write(env, m, [w.id], { payment_ids: [[6, 0, created]] });
  const action = {
    name: 'Payments',
    type: 'ir.actions.act_window',
    res_model: 'account.payment',
    context: { create: false },
  };
  return created.length === 1
    ? { ...action, view_mode: 'form', res_id: created[0] }
    : { ...action, view_mode: 'tree,form', domain: [['id', 'in', created]] };
}

export const paymentActions: Record<string, Action> = {
  action_post: recordMethod((env, m, ids) => postPayments(env, m, ids)),
  action_draft: transitionMethod(
    {
      from: ['posted', 'cancel'],
      vals: { state: 'draft' },
      refuse: 'Only posted or cancelled payments can be reset to draft.',
    },
    null,
  ),
  action_cancel: transitionMethod(
    { from: ['draft'], vals: { state: 'cancel' }, refuse: 'Only a draft payment can be cancelled.' },
    null,
  ),
};

export const registerActions: Record<string, Action> = {
  action_create_payments: recordMethod((env, m, ids) => createPayments(env, m, ids)),
};
