/** Hooks of payments and of the "Register Payment" wizard (its defaults come from the invoices to pay). */
import { userError, validationError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { isZero, one, rows, tbl } from '../lookup.js';
import type { RecordWrites } from '../record-writes.js';
import { checkAccess } from '../rules.js';
import { defaultJournal, guardNonDraft, journalAndCompany } from './account.hooks.js';
import type { ModelHooks, Vals } from './hook-types.js';

/** Odoo's `payment_type` for a payment settling an entry of each move type. */
export const INBOUND_TYPES = ['out_invoice', 'in_refund', 'out_receipt'];

export interface InvoiceToPay {
  id: number;
  name: string;
  state: string;
  move_type: string;
  partner_id: number | null;
  company_id: number;
  currency_id: number | null;
  amount_residual: number;
}

export async function invoicesToPay(env: Env, ids: number[]): Promise<InvoiceToPay[]> {
  await checkAccess(env, env.registry.get('account.move'), ids, 'read');
  return rows<InvoiceToPay>(
    env,
    `SELECT id, name, state, move_type, partner_id, company_id, currency_id, amount_residual
    FROM ${tbl(env, 'account.move')} WHERE id = ANY($1::integer[]) ORDER BY id`,
    [ids],
  );
}

/** The refusals of Odoo 15's wizard `default_get` / `_check_...`, with Odoo's texts. */
export function checkPayable(invoices: InvoiceToPay[]): void {
  if (invoices.some((i) => i.state !== 'posted'))
    throw userError('You can only register payment for posted journal entries.');
  if (invoices.some((i) => i.move_type === 'entry'))
    throw userError('You can only register a payment for invoices, credit notes and receipts.');
  if (invoices.every((i) => isZero(Number(i.amount_residual)))) {
    throw userError("You can't register a payment because there is nothing left to pay on the selected journal items.");
  }
  if (new Set(invoices.map((i) => i.company_id)).size > 1)
    throw userError("You can't create payments for entries belonging to different companies.");
  if (new Set(invoices.map((i) => INBOUND_TYPES.includes(i.move_type))).size > 1) {
    throw userError("You can't register payments for journal items being either all inbound, either all outbound.");
  }
}

async function linkedInvoices(env: Env, m: ModelDef, id: number): Promise<number[]> {
  const fd = m.fields.get('invoice_ids')!;
  return (
    await rows<{ id: number }>(
      env,
      `SELECT ${fd.column2} AS id FROM "${env.schema}"."${fd.relationTable}" WHERE ${fd.column1} = $1 ORDER BY 1`,
      [id],
    )
  ).map((r) => r.id);
}

/** Odoo's wizard reads the invoices from the context (active_model / active_ids); so does this one. */
async function registerDefaults(env: Env, m: ModelDef, id: number, vals: Vals, { write }: RecordWrites): Promise<void> {
  let ids = await linkedInvoices(env, m, id);
  const { active_model: model, active_ids: active } = env.context;
  if (!ids.length && model !== undefined) {
    if (model !== 'account.move')
      throw userError(
        'The register payment wizard should only be called on account.move or account.move.line records.',
      );
    if (!Array.isArray(active) || !active.every((x) => Number.isInteger(x)))
      throw userError('Select the invoices to pay (active_ids).');
    ids = active as number[];
  }
  if (!ids.length) throw userError('Select the invoices to pay (context active_ids, or invoice_ids).');
  const invoices = await invoicesToPay(env, ids);
  checkPayable(invoices);
  const first = invoices[0]!;
  const partners = new Set(invoices.map((i) => i.partner_id));
  const defaults: Vals = {
    invoice_ids: [[6, 0, ids]],
    payment_type: INBOUND_TYPES.includes(first.move_type) ? 'inbound' : 'outbound',
    partner_type: first.move_type.startsWith('out_') ? 'customer' : 'supplier',
    partner_id: partners.size === 1 ? (first.partner_id ?? false) : false,
    company_id: first.company_id,
    currency_id: first.currency_id ?? false,
    amount: invoices.reduce((s, i) => s + Number(i.amount_residual), 0),
    communication: invoices.map((i) => i.name).join(' '),
    journal_id: await defaultJournal(env, ['bank', 'cash'], first.company_id),
  };
  for (const k of Object.keys(vals)) if (k !== 'invoice_ids') delete defaults[k];
  await write(env, m, [id], defaults);
}

const PAYMENT_LOCKED = [
  'amount',
  'journal_id',
  'partner_id',
  'date',
  'payment_type',
  'partner_type',
  'reconciled_invoice_ids',
  'currency_id',
  'company_id',
  'name',
];

export const paymentHooks: Record<string, ModelHooks> = {
  'account.payment': {
    async prepare(env, m, vals, ids) {
      if (ids)
        return guardNonDraft(
          env,
          m,
          ids,
          vals,
          PAYMENT_LOCKED,
          ['state', 'sequence_prefix', 'sequence_number'],
          'payment',
        );
      if (!env.action && ((vals.state ?? 'draft') !== 'draft' || 'sequence_number' in vals)) {
        throw userError('A payment is created in draft; post it with action_post.');
      }
      await journalAndCompany(env, vals, ['bank', 'cash']);
    },
    async validate(env, m, ids) {
      const fd = m.fields.get('reconciled_invoice_ids')!;
      const many = await one(
        env,
        `SELECT 1 FROM "${env.schema}"."${fd.relationTable}" WHERE ${fd.column1} = ANY($1::integer[])
        GROUP BY ${fd.column1} HAVING count(*) > 1`,
        [ids],
      );
      if (many) throw validationError('A payment of the embedded ERP is reconciled with one invoice at most.');
    },
    async beforeUnlink(env, m, ids) {
      const posted = await one(
        env,
        `SELECT 1 FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) AND state = 'posted'`,
        [ids],
      );
      if (posted) throw userError('You cannot delete an entry which has been posted once.');
    },
  },
  'account.payment.register': {
    afterCreate: registerDefaults,
  },
};
