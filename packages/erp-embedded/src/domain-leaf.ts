/** One domain leaf `[path, operator, value]` to SQL; dotted paths become sub-selects. */
import { valueError } from './errors.js';
import { type FieldDef, isX2many, sqlType } from './fields.js';
import type { ModelDef, ModelRegistry } from './model.types.js';
import type { Params } from './orm/env.js';
import { qi, qt } from './schema.js';
import { toColumn, truthy } from './values.js';

export interface LeafCtx {
  registry: ModelRegistry;
  schema: string;
  params: Params;
  activeTest: boolean;
}

const OPERATORS = new Set([
  '=',
  '!=',
  '<=',
  '<',
  '>',
  '>=',
  '=?',
  '=like',
  '=ilike',
  'like',
  'not like',
  'ilike',
  'not ilike',
  'in',
  'not in',
  'child_of',
  'parent_of',
]);
const NEGATIVE: Record<string, string> = { '!=': '=', 'not like': 'like', 'not ilike': 'ilike', 'not in': 'in' };
const LIKE_SQL: Record<string, string> = {
  like: 'LIKE',
  ilike: 'ILIKE',
  'not like': 'NOT LIKE',
  'not ilike': 'NOT ILIKE',
  '=like': 'LIKE',
  '=ilike': 'ILIKE',
};

const pyRepr = (leaf: unknown[]) =>
  `(${leaf.map((x) => (typeof x === 'string' ? `'${x}'` : JSON.stringify(x))).join(', ')})`;
const isEmpty = (v: unknown) => v === false || v === null || v === undefined;
const isNameValue = (v: unknown) =>
  typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'));

/** A search value converted to the column's type (selection values are not checked when searching). */
function searchValue(model: string, fd: FieldDef, v: unknown): unknown {
  if (fd.type === 'char' || fd.type === 'text' || fd.type === 'html' || fd.type === 'selection') return String(v);
  if (fd.type === 'many2one' || fd.name === 'id') return toColumn(model, { ...fd, type: 'integer' }, v);
  return toColumn(model, fd, v);
}

export function compileLeaf(ctx: LeafCtx, m: ModelDef, alias: string, leaf: unknown[]): string {
  const [left, rawOp] = leaf;
  const right = leaf[2];
  if (typeof rawOp !== 'string') throw valueError(`Invalid leaf ${pyRepr(leaf)}`);
  let op = rawOp.toLowerCase();
  if (op === '<>') op = '!=';
  if (!OPERATORS.has(op)) throw valueError(`Invalid leaf ${pyRepr(leaf)}`);
  if (typeof left === 'number' && op === '=' && right === 1 && (left === 0 || left === 1))
    return left ? 'TRUE' : 'FALSE';
  if (typeof left !== 'string') throw valueError(`Invalid leaf ${pyRepr(leaf)}`);
  const path = left.split('.');
  let fd = m.fields.get(path[0]!);
  if (fd?.name === 'display_name') fd = m.fields.get(m.recName);
  if (!fd || (!fd.store && fd.type !== 'one2many')) {
    throw valueError(`Invalid field ${m.name}.${path[0]} in leaf ${pyRepr(leaf)}`);
  }
  if (path.length > 1) return pathLeaf(ctx, alias, fd, [path.slice(1).join('.'), op, right], leaf, m);
  if (op === 'child_of' || op === 'parent_of') return hierarchyLeaf(ctx, m, alias, fd, op, right);
  if (isX2many(fd)) return x2manyLeaf(ctx, alias, fd, op, right, leaf);
  if (fd.type === 'many2one' && isNameValue(right) && op !== '=?') {
    const co = ctx.registry.get(fd.relation!);
    const a = ctx.params.alias();
    const positive = NEGATIVE[op] ?? op;
    const sub = `SELECT ${a}.id FROM ${qt(ctx.schema, co.table)} ${a} WHERE ${compileLeaf(ctx, co, a, [co.recName, positive, right])}`;
    const col = `${alias}.${qi(fd.name)}`;
    return NEGATIVE[op] ? `(${col} IS NULL OR ${col} NOT IN (${sub}))` : `${col} IN (${sub})`;
  }
  return columnLeaf(ctx, m, `${alias}.${qi(fd.name)}`, fd, op, right);
}

function columnLeaf(ctx: LeafCtx, m: ModelDef, col: string, fd: FieldDef, op: string, right: unknown): string {
  const p = ctx.params;
  const cast = sqlType(fd.type === 'many2one' ? 'integer' : fd.type);
  if (op === '=?') {
    if (isEmpty(right)) return 'TRUE';
    op = Array.isArray(right) ? 'in' : '=';
  }
  if ((op === '=' || op === '!=') && Array.isArray(right)) op = op === '=' ? 'in' : 'not in';
  if (op === 'in' || op === 'not in') {
    const list = Array.isArray(right) ? right : [right];
    const isBool = fd.type === 'boolean';
    const hasNull = list.some((v) => v === false || v === null);
    const vals = list.filter((v) => isBool || !(v === false || v === null)).map((v) => searchValue(m.name, fd, v));
    const base =
      vals.length === 0
        ? op === 'in'
          ? 'FALSE'
          : 'TRUE'
        : op === 'in'
          ? `${col} = ANY(${p.add(vals, `${cast}[]`)})`
          : `${col} <> ALL(${p.add(vals, `${cast}[]`)})`;
    if (op === 'in') return hasNull ? `(${base} OR ${col} IS NULL)` : base;
    return hasNull ? `(${base} AND ${col} IS NOT NULL)` : `(${base} OR ${col} IS NULL)`;
  }
  if (LIKE_SQL[op]) {
    const s = isEmpty(right) ? '' : String(right);
    const wildcard = !op.startsWith('=');
    const sql = `(${col}::text ${LIKE_SQL[op]} ${p.add(wildcard ? `%${s}%` : s, 'text')})`;
    return wildcard && s === '' ? `(${sql} OR ${col} IS NULL)` : sql;
  }
  if (fd.type === 'boolean' && (op === '=' || op === '!=')) {
    const wantTrue = truthy(right) === (op === '=');
    return wantTrue ? `(${col} IS NOT NULL AND ${col} = true)` : `(${col} IS NULL OR ${col} = false)`;
  }
  if (isEmpty(right)) {
    if (op === '=') return `${col} IS NULL`;
    if (op === '!=') return `${col} IS NOT NULL`;
    return 'FALSE'; // SQL comparison with NULL is never true, as in Odoo.
  }
  return `(${col} ${op} ${p.add(searchValue(m.name, fd, right), cast)})`;
}

/** SQL listing ids of records whose x2many field holds a comodel row matching `cond` (on alias a). */
function ownersOf(ctx: LeafCtx, fd: FieldDef, cond: (a: string) => string): string {
  const co = ctx.registry.get(fd.relation!);
  const a = ctx.params.alias();
  const coTable = `${qt(ctx.schema, co.table)} ${a}`;
  if (fd.type === 'one2many') {
    const inv = qi(fd.inverseName!);
    return `SELECT ${a}.${inv} FROM ${coTable} WHERE ${a}.${inv} IS NOT NULL AND ${cond(a)}`;
  }
  const r = ctx.params.alias();
  return `SELECT ${r}.${qi(fd.column1!)} FROM ${qt(ctx.schema, fd.relationTable!)} ${r} JOIN ${coTable} ON ${a}.id = ${r}.${qi(fd.column2!)} WHERE ${cond(a)}`;
}

function x2manyLeaf(ctx: LeafCtx, alias: string, fd: FieldDef, op: string, right: unknown, leaf: unknown[]): string {
  const co = ctx.registry.get(fd.relation!);
  const id = `${alias}.id`;
  if (isEmpty(right) && (op === '=' || op === '!=')) {
    return `${id} ${op === '=' ? 'NOT IN' : 'IN'} (${ownersOf(ctx, fd, () => 'TRUE')})`;
  }
  const positive = NEGATIVE[op] ?? op;
  const negate = positive !== op;
  if (isNameValue(right)) {
    const sub = ownersOf(ctx, fd, (a) => compileLeaf(ctx, co, a, [co.recName, positive, right]));
    return `${id} ${negate ? 'NOT IN' : 'IN'} (${sub})`;
  }
  if (positive === '=' || positive === 'in') {
    const ids = (Array.isArray(right) ? right : [right])
      .filter((v) => !isEmpty(v))
      .map((v) => searchValue(co.name, co.fields.get('id')!, v));
    const sub = ownersOf(ctx, fd, (a) => `${a}.id = ANY(${ctx.params.add(ids, 'integer[]')})`);
    return `${id} ${negate ? 'NOT IN' : 'IN'} (${sub})`;
  }
  throw valueError(`Invalid leaf ${pyRepr(leaf)}`);
}

function pathLeaf(ctx: LeafCtx, alias: string, fd: FieldDef, rest: unknown[], leaf: unknown[], m: ModelDef): string {
  if (!fd.relation) throw valueError(`Invalid field ${m.name}.${fd.name} in leaf ${pyRepr(leaf)}`);
  const co = ctx.registry.get(fd.relation);
  if (fd.type === 'many2one') {
    // Odoo 15 searches the comodel with active_test=False for many2one paths.
    const a = ctx.params.alias();
    const cond = compileLeaf(ctx, co, a, rest);
    return `${alias}.${qi(fd.name)} IN (SELECT ${a}.id FROM ${qt(ctx.schema, co.table)} ${a} WHERE ${cond})`;
  }
  const withActive = ctx.activeTest && co.fields.has('active') && rest[0] !== 'active';
  const sub = ownersOf(ctx, fd, (a) => {
    const cond = compileLeaf(ctx, co, a, rest);
    return withActive ? `(${cond} AND ${a}.active = true)` : cond;
  });
  return `${alias}.id IN (${sub})`;
}

function hierarchyLeaf(ctx: LeafCtx, m: ModelDef, alias: string, fd: FieldDef, op: string, right: unknown): string {
  if (!fd.relation && fd.name !== 'id') {
    throw valueError(
      `Invalid leaf ${pyRepr([fd.name, op, right])}: ${op} needs a relational field or id, and ${m.name}.${fd.name} is a ${fd.type} field`,
    );
  }
  const target = fd.relation ? ctx.registry.get(fd.relation) : m;
  // Odoo: a many2one to its own model is its own hierarchy, `('id', op, ids)` with parent = that field.
  const selfParent = fd.type === 'many2one' && fd.relation === m.name;
  const parentName = selfParent ? fd.name : target.parentName;
  const p = ctx.params;
  let seed: string;
  if (isNameValue(right)) {
    const a = p.alias();
    seed = `SELECT ${a}.id FROM ${qt(ctx.schema, target.table)} ${a} WHERE ${compileLeaf(ctx, target, a, [target.recName, 'ilike', right])}`;
  } else {
    const ids = (Array.isArray(right) ? right : [right])
      .filter((v) => !isEmpty(v))
      .map((v) => searchValue(target.name, target.fields.get('id')!, v));
    seed = `SELECT unnest(${p.add(ids, 'integer[]')})`;
  }
  let set = seed;
  if (parentName) {
    const [h, x] = [p.alias(), p.alias()];
    const parent = qi(parentName);
    const table = qt(ctx.schema, target.table);
    const step =
      op === 'child_of'
        ? `SELECT ${x}.id FROM ${table} ${x} JOIN ${h} ON ${x}.${parent} = ${h}.id`
        : `SELECT ${x}.${parent} FROM ${table} ${x} JOIN ${h} ON ${x}.id = ${h}.id WHERE ${x}.${parent} IS NOT NULL`;
    set = `WITH RECURSIVE ${h}(id) AS (${seed} UNION ${step}) SELECT id FROM ${h}`;
  }
  if (isX2many(fd)) return `${alias}.id IN (${ownersOf(ctx, fd, (a) => `${a}.id IN (${set})`)})`;
  return `${alias}.${qi(selfParent ? 'id' : fd.name)} IN (${set})`;
}
