/**
 * Value conversion between Odoo's wire conventions and columns: `false` for empty, dates as
 * "YYYY-MM-DD", datetimes as UTC "YYYY-MM-DD HH:MM:SS", selections checked against their keys.
 */
import { valueError } from './errors.js';
import type { FieldDef } from './fields.js';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const INT_MAX = 2 ** 31 - 1;

const repr = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

/** Python truthiness, used where Odoo does `bool(value)` or `value or 0`. */
export const truthy = (v: unknown): boolean =>
  !(v === false || v === null || v === undefined || v === 0 || v === '' || (Array.isArray(v) && v.length === 0));

function toNumber(v: unknown, integer: boolean): number {
  if (!truthy(v)) return 0;
  if (v === true) return 1;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw valueError(
      integer ? `invalid literal for int() with base 10: ${repr(v)}` : `could not convert string to float: ${repr(v)}`,
    );
  }
  // PostgreSQL's integer column (Odoo's too): psycopg2 would fail with "integer out of range".
  if (integer && Math.abs(n) > INT_MAX) throw valueError(`integer out of range: ${repr(v)} (at most ${INT_MAX})`);
  return n;
}

function toDate(v: string, withTime: boolean): string {
  if (withTime) {
    if (DATE_RE.test(v)) return `${v} 00:00:00`;
    const s = v.slice(0, 19);
    if (DATETIME_RE.test(s) && !Number.isNaN(Date.parse(`${s.replace(' ', 'T')}Z`))) return s;
    throw valueError(`time data ${repr(v)} does not match format '%Y-%m-%d %H:%M:%S'`);
  }
  const s = v.slice(0, 10);
  if (DATE_RE.test(s) && !Number.isNaN(Date.parse(s))) return s;
  throw valueError(`time data ${repr(v)} does not match format '%Y-%m-%d'`);
}

/** Converts a written value to the column parameter (null for empty). */
export function toColumn(model: string, fd: FieldDef, v: unknown): unknown {
  switch (fd.type) {
    case 'char':
    case 'text':
    case 'html':
      if (v === false || v === null || v === undefined) return null;
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      throw valueError(`Wrong value for ${model}.${fd.name}: ${repr(v)}`);
    case 'integer':
      return toNumber(v, true);
    case 'float':
    case 'monetary':
      return toNumber(v, false);
    case 'boolean':
      return truthy(v);
    case 'date':
    case 'datetime':
      if (!truthy(v)) return null;
      if (typeof v !== 'string') throw valueError(`Wrong value for ${model}.${fd.name}: ${repr(v)}`);
      return toDate(v, fd.type === 'datetime');
    case 'selection':
      if (!truthy(v)) return null;
      if (typeof v === 'string' && fd.selection!.some(([k]) => k === v)) return v;
      throw valueError(`Wrong value for ${model}.${fd.name}: ${repr(v)}`);
    case 'many2one': {
      if (!truthy(v)) return null;
      const id = Array.isArray(v) ? v[0] : v;
      if (typeof id === 'number' && Number.isInteger(id) && id > 0) return id;
      throw valueError(`Wrong value for ${model}.${fd.name}: ${repr(v)}`);
    }
    default:
      throw new Error(`toColumn on ${fd.type}`);
  }
}

/** SQL expression selecting a column so its value arrives in wire format (dates as text). */
export function selectExpr(alias: string, fd: FieldDef): string {
  const col = `${alias}."${fd.name}"`;
  if (fd.type === 'datetime') return `to_char(${col}, 'YYYY-MM-DD HH24:MI:SS')`;
  if (fd.type === 'date') return `to_char(${col}, 'YYYY-MM-DD')`;
  return col;
}

/** Formats a selected column value the way Odoo's read() returns it. */
export function fromColumn(fd: FieldDef, v: unknown): unknown {
  switch (fd.type) {
    case 'integer':
      return v === null || v === undefined ? 0 : Number(v);
    case 'float':
    case 'monetary':
      return v === null || v === undefined ? 0 : Number(v);
    case 'boolean':
      return v === true;
    default:
      return v === null || v === undefined ? false : v;
  }
}
