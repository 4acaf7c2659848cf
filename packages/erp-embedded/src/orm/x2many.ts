/**
 * x2many writes with Odoo's command tuples: [0,0,vals] create, [1,id,vals] update, [2,id,0] delete,
 * [3,id,0] unlink, [4,id,0] link, [5,0,0] clear, [6,0,ids] set. A plain id list means [6,0,ids].
 */
import { valueError } from '../errors.js';
import type { FieldDef } from '../fields.js';
import type { ModelDef } from '../registry.js';
import { qi, qt } from '../schema.js';
import { type Env, tableSql } from './env.js';
import type { RecordWrites } from './record-writes.js';

type Command = [number, number, unknown];

/** One owner's x2many value, as the commands act on it. */
interface X2manyOf {
  env: Env;
  /** The comodel. */
  co: ModelDef;
  fd: FieldDef;
  owner: number;
  rw: RecordWrites;
}

function toCommands(m: ModelDef, fd: FieldDef, value: unknown): Command[] {
  if (value === false || value === null) return [[5, 0, 0]];
  if (!Array.isArray(value)) throw valueError(`Wrong value for ${m.name}.${fd.name}: ${JSON.stringify(value)}`);
  if (value.every((v) => typeof v === 'number')) return [[6, 0, value]];
  return value.map((c) => {
    if (!Array.isArray(c) || c.length < 1 || typeof c[0] !== 'number' || c[0] < 0 || c[0] > 6) {
      throw valueError(`Wrong value for ${m.name}.${fd.name}: ${JSON.stringify(value)}`);
    }
    return [c[0], Number(c[1] ?? 0), c[2]] as Command;
  });
}

const idList = (v: unknown): number[] => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isInteger(x))) {
    throw valueError(`Invalid ids for command 6: ${JSON.stringify(v)}`);
  }
  return v as number[];
};

export async function applyX2many(
  env: Env,
  m: ModelDef,
  fd: FieldDef,
  owners: number[],
  value: unknown,
  rw: RecordWrites,
): Promise<void> {
  const co = env.registry.get(fd.relation!);
  const commands = toCommands(m, fd, value);
  for (const owner of owners) {
    const of: X2manyOf = { env, co, fd, owner, rw };
    for (const command of commands) {
      if (fd.type === 'many2many') await m2mCommand(of, command);
      else await o2mCommand(of, command);
    }
  }
}

async function m2mCommand(
  { env, co, fd, owner, rw: { createRecord, write, unlink } }: X2manyOf,
  [op, id, arg]: Command,
) {
  const rel = qt(env.schema, fd.relationTable!);
  const [c1, c2] = [qi(fd.column1!), qi(fd.column2!)];
  const link = (ids: number[]) =>
    env.q.query(`INSERT INTO ${rel} (${c1}, ${c2}) SELECT $1, unnest($2::integer[]) ON CONFLICT DO NOTHING`, [
      owner,
      ids,
    ]);
  switch (op) {
    case 0:
      return void (await link([await createRecord(env, co, arg)]));
    case 1:
      return void (await write(env, co, [id], arg));
    case 2:
      return void (await unlink(env, co, [id]));
    case 3:
      return void (await env.q.query(`DELETE FROM ${rel} WHERE ${c1} = $1 AND ${c2} = $2`, [owner, id]));
    case 4:
      return void (await link([id]));
    case 5:
      return void (await env.q.query(`DELETE FROM ${rel} WHERE ${c1} = $1`, [owner]));
    case 6: {
      const ids = idList(arg);
      await env.q.query(`DELETE FROM ${rel} WHERE ${c1} = $1 AND NOT (${c2} = ANY($2::integer[]))`, [owner, ids]);
      return void (await link(ids));
    }
  }
}

async function o2mCommand(
  { env, co, fd, owner, rw: { createRecord, write, unlink } }: X2manyOf,
  [op, id, arg]: Command,
) {
  const inv = fd.inverseName!;
  const table = tableSql(env, co);
  // Removing a child: Odoo deletes it when the inverse many2one is required, else clears the link.
  const detach = async (where: string, params: unknown[]) => {
    if (co.fields.get(inv)!.required) {
      const r = await env.q.query<{ id: number }>(`SELECT id FROM ${table} WHERE ${where}`, params);
      if (r.rows.length)
        await unlink(
          env,
          co,
          r.rows.map((x) => x.id),
        );
    } else {
      await env.q.query(`UPDATE ${table} SET ${qi(inv)} = NULL WHERE ${where}`, params);
    }
  };
  switch (op) {
    case 0: {
      const vals = typeof arg === 'object' && arg !== null ? arg : {};
      return void (await createRecord(env, co, { ...vals, [inv]: owner }));
    }
    case 1:
      return void (await write(env, co, [id], arg));
    case 2:
      return void (await unlink(env, co, [id]));
    case 3:
      return detach(`id = $1 AND ${qi(inv)} = $2`, [id, owner]);
    case 4:
      return void (await write(env, co, [id], { [inv]: owner }));
    case 5:
      return detach(`${qi(inv)} = $1`, [owner]);
    case 6: {
      const ids = idList(arg);
      await detach(`${qi(inv)} = $1 AND NOT (id = ANY($2::integer[]))`, [owner, ids]);
      if (ids.length) await write(env, co, ids, { [inv]: owner });
      return;
    }
  }
}
