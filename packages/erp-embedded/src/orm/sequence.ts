/**
 * Numbering: `ir.sequence.next_by_code` (sale.order S00001, purchase.order P00001, fsm.order
 * FSO00001) and Odoo 15's journal-entry names (`sequence.mixin`): "INV/2026/00001" in a sale journal
 * (yearly, 5 digits), "BNK1/2026/05/0001" elsewhere (monthly, 4 digits), "R" before refunds.
 */
import type { Env } from './env.js';
import { one, tbl, todayUtc } from './lookup.js';

/** Odoo's `_interpolation_dict` subset: `%(year)s`, `%(y)s`, `%(month)s`, `%(day)s`. */
function interpolate(text: string | null, date: string): string {
  if (!text) return '';
  const [year, month, day] = date.split('-') as [string, string, string];
  const vals: Record<string, string> = { year, y: year.slice(2), month, day };
  return text.replace(/%\((\w+)\)s/g, (all, k: string) => vals[k] ?? all);
}

/**
 * The next number of the sequence with `code` for `company` (a company-specific sequence wins over a
 * shared one, as in Odoo), or false when there is none. The row lock makes concurrent calls wait.
 */
export async function nextByCode(
  env: Env,
  code: string,
  company: number | false,
  date = todayUtc(),
): Promise<string | false> {
  const t = tbl(env, 'ir.sequence');
  const r = await one<{ n: number; prefix: string | null; suffix: string | null; padding: number }>(
    env,
    `UPDATE ${t} SET number_next = number_next + number_increment
      WHERE id = (SELECT id FROM ${t} WHERE code = $1 AND active AND (company_id = $2 OR company_id IS NULL)
                   ORDER BY company_id NULLS LAST, id LIMIT 1)
      RETURNING number_next - number_increment AS n, prefix, suffix, padding`,
    [code, company || null],
  );
  if (!r) return false;
  return `${interpolate(r.prefix, date)}${String(r.n).padStart(r.padding, '0')}${interpolate(r.suffix, date)}`;
}

export interface JournalInfo {
  id: number;
  code: string;
  type: string;
}

/**
 * The next name in `journal` for a record of `model` (account.move or account.payment, each with
 * `journal_id`, `sequence_prefix`, `sequence_number`) dated `date`. Serialised per journal and prefix.
 */
export async function nextJournalName(env: Env, model: string, journal: JournalInfo, date: string, refund: boolean) {
  const [year, month] = date.split('-') as [string, string];
  const yearly = journal.type === 'sale';
  const prefix = `${refund ? 'R' : ''}${journal.code}/${year}/${yearly ? '' : `${month}/`}`;
  await env.q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${env.schema}:${model}:${journal.id}:${prefix}`]);
  const last = await one<{ n: number | null }>(
    env,
    `SELECT max(sequence_number) AS n FROM ${tbl(env, model)} WHERE journal_id = $1 AND sequence_prefix = $2`,
    [journal.id, prefix],
  );
  const number = (last?.n ?? 0) + 1;
  return {
    name: `${prefix}${String(number).padStart(yearly ? 5 : 4, '0')}`,
    sequence_prefix: prefix,
    sequence_number: number,
  };
}
