/**
 * Odoo's `copy(default)` and `name_create(name)`. copy duplicates one record through `create` (so
 * defaults, sequences and hooks apply): every stored field except the log columns, computed fields
 * and the fields Odoo declares `copy=False` (numbers, states, dates of the document's life); the
 * many2many values; and the lines of the one2many fields Odoo copies (order and invoice lines).
 * A partner's copy is named "<name> (copy)", as base does.
 */
import { userError, valueError } from '../errors.js';
import { hasColumn } from '../fields.js';
import type { ModelDef } from '../registry.js';
import type { Env } from './env.js';
import { read } from './read.js';
import { checkAccess } from './rules.js';
import { createRecord } from './write.js';

/** Fields with Odoo's `copy=False`, by model. */
const NOT_COPIED: Record<string, string[]> = {
  'sale.order': ['name', 'state', 'date_order', 'origin', 'invoice_ids'],
  'sale.order.line': ['invoice_lines', 'qty_delivered'],
  'account.move.line': ['sale_line_ids'],
  'purchase.order': ['name', 'state', 'date_order', 'date_approve', 'origin'],
  'account.move': [
    'name',
    'state',
    'posted_before',
    'sequence_prefix',
    'sequence_number',
    'invoice_date',
    'date',
    'invoice_date_due',
    'payment_reference',
    'x_acct_invoice_id',
    'payment_ids',
  ],
  'account.payment': ['name', 'state', 'sequence_prefix', 'sequence_number', 'reconciled_invoice_ids'],
  'fsm.order': ['name', 'stage_id', 'date_start', 'date_end'],
  'crm.lead': ['date_closed'],
  'res.users': ['login', 'password'],
  'ir.model.data': ['name'],
};
/** one2many fields Odoo copies (`copy=True`): their lines are duplicated onto the copy. */
const COPIED_LINES = new Set(['sale.order.order_line', 'purchase.order.order_line', 'account.move.invoice_line_ids']);

const LOG = new Set(['id', 'display_name', 'create_uid', 'create_date', 'write_uid', 'write_date']);

async function copyValues(env: Env, m: ModelDef, id: number, depth: number): Promise<Record<string, unknown>> {
  const skip = new Set(NOT_COPIED[m.name] ?? []);
  const fds = [...m.fields.values()].filter(
    (fd) =>
      !LOG.has(fd.name) &&
      !fd.computed &&
      !fd.secret &&
      !skip.has(fd.name) &&
      (hasColumn(fd) ||
        fd.type === 'many2many' ||
        (fd.type === 'one2many' && COPIED_LINES.has(`${m.name}.${fd.name}`))),
  );
  const [rec] = await read(
    env,
    m,
    [id],
    fds.map((fd) => fd.name),
  );
  const vals: Record<string, unknown> = {};
  for (const fd of fds) {
    const v = rec![fd.name];
    if (fd.type === 'many2one') vals[fd.name] = Array.isArray(v) ? v[0] : false;
    else if (fd.type === 'many2many') vals[fd.name] = [[6, 0, v]];
    else if (fd.type === 'one2many') {
      if (depth > 0) continue;
      const co = env.registry.get(fd.relation!);
      const lines: unknown[] = [];
      for (const lineId of v as number[]) {
        const lv = await copyValues(env, co, lineId, depth + 1);
        delete lv[fd.inverseName!];
        lines.push([0, 0, lv]);
      }
      vals[fd.name] = lines;
    } else vals[fd.name] = v;
  }
  if (m.name === 'res.partner' && typeof vals.name === 'string') vals.name = `${vals.name} (copy)`;
  return vals;
}

export async function copy(env: Env, m: ModelDef, ids: number[], dflt: unknown): Promise<number> {
  if (ids.length !== 1) throw valueError(`Expected singleton: ${m.name}(${ids.join(', ')})`);
  if (dflt !== undefined && dflt !== null && dflt !== false && (typeof dflt !== 'object' || Array.isArray(dflt))) {
    throw valueError(`copy() expects a dictionary of default values, got ${JSON.stringify(dflt)}`);
  }
  await checkAccess(env, m, ids, 'read');
  const vals = { ...(await copyValues(env, m, ids[0]!, 0)), ...((dflt || {}) as Record<string, unknown>) };
  return createRecord(env, m, vals);
}

export async function nameCreate(env: Env, m: ModelDef, name: unknown): Promise<[number, unknown]> {
  if (!m.fields.has(m.recName) || m.recName === 'id') {
    throw userError(`Cannot execute name_create, no _rec_name defined on ${m.name}`);
  }
  const id = await createRecord(env, m, { [m.recName]: name });
  const [rec] = await read(env, m, [id], ['display_name']);
  return [id, rec!.display_name];
}
