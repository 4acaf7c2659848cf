/** Hooks of journal entries and their lines: default journal, edits of posted entries, deletion. */
import { userError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { asId, one, tbl } from '../lookup.js';
import { companies } from '../rules.js';
import type { ModelHooks, Vals } from './hook-types.js';
import { productLineDefaults, PURCHASE_LINE, SALE_LINE } from './sales.hooks.js';

/** Journal type by move type (Odoo's `_get_default_journal`). */
const JOURNAL_TYPE: Record<string, string> = {
  out_invoice: 'sale',
  out_refund: 'sale',
  out_receipt: 'sale',
  in_invoice: 'purchase',
  in_refund: 'purchase',
  in_receipt: 'purchase',
  entry: 'general',
};

/** Fields of a posted or cancelled entry that only change after `button_draft`. */
const LOCKED_FIELDS = [
  'invoice_line_ids',
  'partner_id',
  'invoice_date',
  'invoice_date_due',
  'date',
  'journal_id',
  'move_type',
  'currency_id',
  'company_id',
  'name',
];
/** Fields only the business methods write. */
const ACTION_FIELDS = ['state', 'posted_before', 'sequence_prefix', 'sequence_number'];

export const LINE_LOCKED =
  'You cannot modify the lines of a posted or cancelled journal entry: reset it to draft first.';

export async function defaultJournal(env: Env, types: string[], company: number | false): Promise<number> {
  const r = await one<{ id: number }>(
    env,
    `SELECT id FROM ${tbl(env, 'account.journal')} WHERE type = ANY($1::text[]) AND company_id = $2 AND active
      ORDER BY array_position($1::text[], type::text), sequence, id LIMIT 1`,
    [types, company || null],
  );
  if (!r) {
    const name = company
      ? (await one<{ name: string }>(env, `SELECT name FROM ${tbl(env, 'res.company')} WHERE id = $1`, [company]))?.name
      : '';
    throw userError(`No journal could be found in company ${name ?? ''} for any of those types: ${types.join(', ')}`);
  }
  return r.id;
}

/** Sets `journal_id` (default by type) and `company_id` (the journal's, as Odoo's related field) of a new record. */
export async function journalAndCompany(env: Env, vals: Vals, types: string[]): Promise<void> {
  const company = asId(vals.company_id) ?? asId(env.context.default_company_id) ?? (await companies(env)).current;
  const journal =
    asId(vals.journal_id) ?? asId(env.context.default_journal_id) ?? (await defaultJournal(env, types, company));
  vals.journal_id = journal;
  const j = await one<{ company_id: number }>(
    env,
    `SELECT company_id FROM ${tbl(env, 'account.journal')} WHERE id = $1`,
    [journal],
  );
  if (j) vals.company_id = j.company_id;
}

/** UserError when `vals` touch `fields` of a record of `ids` that is not in draft, or any of `actionFields`. */
export async function guardNonDraft(
  env: Env,
  m: ModelDef,
  ids: number[],
  vals: Vals,
  fields: string[],
  actionFields: string[],
  what: string,
) {
  if (env.action) return;
  const direct = actionFields.filter((k) => k in vals);
  if (direct.length) throw userError(`${direct.join(', ')} of a ${what} change only through its business methods.`);
  const touched = fields.filter((k) => k in vals);
  if (!touched.length) return;
  const locked = await one(
    env,
    `SELECT 1 FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) AND state <> 'draft'`,
    [ids],
  );
  if (locked)
    throw userError(
      `You cannot modify the following fields of a posted or cancelled ${what}: ${touched.join(', ')}. Reset it to draft first.`,
    );
}

async function requireDraftMoves(env: Env, moveIds: number[]): Promise<void> {
  if (env.action || !moveIds.length) return;
  const locked = await one(
    env,
    `SELECT 1 FROM ${tbl(env, 'account.move')} WHERE id = ANY($1::integer[]) AND state <> 'draft'`,
    [moveIds],
  );
  if (locked) throw userError(LINE_LOCKED);
}

const movesOfLines = async (env: Env, ids: number[]) =>
  (
    await env.q.query<{ id: number }>(
      `SELECT DISTINCT move_id AS id FROM ${tbl(env, 'account.move.line')} WHERE id = ANY($1::integer[])`,
      [ids],
    )
  ).rows.map((r) => r.id);

export const accountHooks: Record<string, ModelHooks> = {
  'account.move': {
    async prepare(env, m, vals, ids) {
      if (ids) return guardNonDraft(env, m, ids, vals, LOCKED_FIELDS, ACTION_FIELDS, 'journal entry');
      if (
        !env.action &&
        ((vals.state ?? 'draft') !== 'draft' || ACTION_FIELDS.some((k) => k !== 'state' && k in vals))
      ) {
        throw userError('A journal entry is created in draft; post it with action_post.');
      }
      const type = String(vals.move_type ?? env.context.default_move_type ?? 'entry');
      await journalAndCompany(env, vals, [JOURNAL_TYPE[type] ?? 'general']);
    },
    // Odoo 15 `_unlink_forbid_parts_of_chain` / posted_before check.
    async beforeUnlink(env, m, ids) {
      const posted = await one(
        env,
        `SELECT 1 FROM ${tbl(env, m.name)} WHERE id = ANY($1::integer[]) AND (posted_before OR state = 'posted')`,
        [ids],
      );
      if (posted) throw userError('You cannot delete an entry which has been posted once.');
    },
  },
  'account.move.line': {
    async prepare(env, _m, vals, ids) {
      const target = asId(vals.move_id);
      await requireDraftMoves(env, [...(ids ? await movesOfLines(env, ids) : []), ...(target ? [target] : [])]);
      if (ids || !target) return;
      const move = await one<{ move_type: string }>(
        env,
        `SELECT move_type FROM ${tbl(env, 'account.move')} WHERE id = $1`,
        [target],
      );
      const purchase = move?.move_type.startsWith('in_');
      await productLineDefaults(
        env,
        vals,
        purchase ? { ...PURCHASE_LINE, taxes: 'tax_ids' } : { ...SALE_LINE, taxes: 'tax_ids' },
      );
    },
    beforeUnlink: async (env, _m, ids) => requireDraftMoves(env, await movesOfLines(env, ids)),
  },
};
