/** account.move methods (Odoo 15 `account`): post, reset to draft, cancel. */
import { userError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { one, rows, tbl, todayUtc } from '../lookup.js';
import { type JournalInfo, nextJournalName } from '../sequence.js';
import { write } from '../write.js';
import { type Action, lockRecords, recordMethod, transition } from './common.js';

interface MoveRow {
  id: number;
  name: string | null;
  state: string;
  move_type: string;
  partner_id: number | null;
  journal_id: number;
  invoice_date: string | null;
  invoice_date_due: string | null;
  amount_total: number;
}

const PARTNER_LABEL: Record<string, [string, string]> = {
  out_invoice: ['Customer', 'Customer Invoice'],
  out_refund: ['Customer', 'Customer Credit Note'],
  out_receipt: ['Customer', 'Sales Receipt'],
  in_invoice: ['Vendor', 'Vendor Bill'],
  in_refund: ['Vendor', 'Vendor Credit Note'],
  in_receipt: ['Vendor', 'Purchase Receipt'],
};

/** Odoo 15 `_post`: checks, then the invoice date (today), due date, number and state of each entry. */
async function post(env: Env, m: ModelDef, ids: number[]): Promise<false> {
  await lockRecords(env, m, ids, ['state']);
  const moves = await rows<MoveRow>(
    env,
    `SELECT id, name, state, move_type, partner_id, journal_id, amount_total,
            to_char(invoice_date, 'YYYY-MM-DD') AS invoice_date, to_char(invoice_date_due, 'YYYY-MM-DD') AS invoice_date_due
       FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) ORDER BY id`,
    [ids],
  );
  for (const mv of moves) {
    if (mv.state === 'posted') throw userError(`The entry ${mv.name} (id ${mv.id}) is already posted.`);
    if (mv.state !== 'draft')
      throw userError(`The entry ${mv.name} (id ${mv.id}) is cancelled: reset it to draft before posting it.`);
    const lines = await one(env, `SELECT 1 FROM ${tbl(env, 'account.move.line')} WHERE move_id = $1 LIMIT 1`, [mv.id]);
    if (!lines) throw userError('You need to add a line before posting.');
    const invoice = mv.move_type !== 'entry';
    if (invoice && !mv.partner_id) {
      const [who, what] = PARTNER_LABEL[mv.move_type]!;
      throw userError(`The field '${who}' is required, please complete it to validate the ${what}.`);
    }
    if (invoice && Number(mv.amount_total) < 0) {
      throw userError(
        'You cannot validate an invoice with a negative total amount. You should create a credit note instead.',
      );
    }
  }
  for (const mv of moves) {
    const invoiceDate = mv.move_type !== 'entry' ? (mv.invoice_date ?? todayUtc()) : mv.invoice_date;
    const vals: Record<string, unknown> = { state: 'posted', posted_before: true };
    if (invoiceDate)
      Object.assign(vals, {
        invoice_date: invoiceDate,
        date: invoiceDate,
        invoice_date_due: mv.invoice_date_due ?? invoiceDate,
      });
    if (!mv.name || mv.name === '/') {
      const journal = (await one<JournalInfo>(
        env,
        `SELECT id, code, type FROM ${tbl(env, 'account.journal')} WHERE id = $1`,
        [mv.journal_id],
      ))!;
      const date =
        invoiceDate ??
        (await one<{ d: string }>(
          env,
          `SELECT to_char(date, 'YYYY-MM-DD') AS d FROM ${tbl(env, m.name)} WHERE id = $1`,
          [mv.id],
        ))!.d;
      const refund = mv.move_type === 'out_refund' || mv.move_type === 'in_refund';
      Object.assign(vals, await nextJournalName(env, m.name, journal, date, refund));
    }
    await write(env, m, [mv.id], vals);
  }
  // Odoo 15's action_post returns False.
  return false;
}

/** Odoo 15 `button_draft`: posted or cancelled → draft; the payments reconciled with it are unreconciled. */
async function resetToDraft(env: Env, m: ModelDef, ids: number[]): Promise<null> {
  const recs = await lockRecords<{ id: number; state: string }>(env, m, ids, ['state']);
  if (recs.some((r) => r.state !== 'posted' && r.state !== 'cancel'))
    throw userError('Only posted/cancelled journal entries can be reset to draft.');
  const pay = m.fields.get('payment_ids')!;
  const links = await rows<{ move: number; payment: number }>(
    env,
    `SELECT ${pay.column1} AS move, ${pay.column2} AS payment FROM "${env.schema}"."${pay.relationTable}" WHERE ${pay.column1} = ANY($1::integer[])`,
    [ids],
  );
  const payments = env.registry.get('account.payment');
  for (const l of links) await write(env, payments, [l.payment], { reconciled_invoice_ids: [[3, l.move, 0]] });
  await write(env, m, ids, { state: 'draft' });
  return null;
}

export const accountActions: Record<string, Action> = {
  action_post: recordMethod((env, m, ids) => post(env, m, ids)),
  button_draft: recordMethod((env, m, ids) => resetToDraft(env, m, ids)),
  button_cancel: recordMethod(async (env, m, ids) => {
    await transition(env, m, ids, {
      from: ['draft'],
      vals: { state: 'cancel' },
      refuse: 'You can only cancel draft entries.',
    });
    return null;
  }),
};
