/**
 * Fills `ir.model` and `ir.model.fields` from the registry (Odoo writes them when a module loads):
 * one upsert per table, so ids stay stable across starts and a field added in code appears at the
 * next start; rows of models or fields no longer in the registry are removed. Models get Odoo's
 * external ids `base.model_<table>`.
 */
import type { Env } from '../orm/env.js';
import { tbl } from '../orm/lookup.js';

const NOW = `(now() at time zone 'utc')`;

export async function syncIntrospection(env: Env): Promise<void> {
  const models = [...env.registry.models.values()];
  const im = tbl(env, 'ir.model');
  const imf = tbl(env, 'ir.model.fields');
  await env.q.query(
    `INSERT INTO ${im} (model, name, "order", state, transient, create_uid, write_uid, create_date, write_date)
     SELECT x.model, x.name, x.ord, 'base', false, $4, $4, ${NOW}, ${NOW} FROM unnest($1::text[], $2::text[], $3::text[]) AS x(model, name, ord)
     ON CONFLICT (model) DO UPDATE SET name = EXCLUDED.name, "order" = EXCLUDED."order"
       WHERE (${im}.name, ${im}."order") IS DISTINCT FROM (EXCLUDED.name, EXCLUDED."order")`,
    [models.map((m) => m.name), models.map((m) => m.description), models.map((m) => m.order), env.uid],
  );
  await env.q.query(`DELETE FROM ${im} WHERE NOT (model = ANY($1::text[]))`, [models.map((m) => m.name)]);

  const fields = models.flatMap((m) => [...m.fields.values()].map((fd) => ({ m, fd })));
  const col = <T>(fn: (x: (typeof fields)[number]) => T) => fields.map(fn);
  await env.q.query(
    `INSERT INTO ${imf} (model, name, complete_name, model_id, field_description, help, ttype, relation, relation_field, required,
                         readonly, store, index, copied, relation_table, column1, column2, depends, selection, on_delete, state,
                         create_uid, write_uid, create_date, write_date)
     SELECT x.model, x.name, x.model || '.' || x.name, m.id, x.label, x.help, x.ttype, x.rel, x.relf, x.req, x.ro, x.st, false,
            x.st AND x.ttype <> 'one2many', x.relt, x.c1, x.c2, x.dep, x.sel, x.ondel, 'base', $17, $17, ${NOW}, ${NOW}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::boolean[],
                   $10::boolean[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
            AS x(model, name, label, help, ttype, rel, relf, req, ro, st, relt, c1, c2, dep, sel, ondel)
       JOIN ${im} m ON m.model = x.model
     ON CONFLICT (model, name) DO UPDATE SET field_description = EXCLUDED.field_description, help = EXCLUDED.help, ttype = EXCLUDED.ttype,
       relation = EXCLUDED.relation, relation_field = EXCLUDED.relation_field, required = EXCLUDED.required, readonly = EXCLUDED.readonly,
       store = EXCLUDED.store, copied = EXCLUDED.copied, relation_table = EXCLUDED.relation_table, column1 = EXCLUDED.column1,
       column2 = EXCLUDED.column2, depends = EXCLUDED.depends, selection = EXCLUDED.selection, on_delete = EXCLUDED.on_delete
     WHERE (${imf}.field_description, ${imf}.help, ${imf}.ttype, ${imf}.relation, ${imf}.required, ${imf}.readonly, ${imf}.store,
            ${imf}.selection, ${imf}.depends, ${imf}.on_delete)
       IS DISTINCT FROM (EXCLUDED.field_description, EXCLUDED.help, EXCLUDED.ttype, EXCLUDED.relation, EXCLUDED.required,
            EXCLUDED.readonly, EXCLUDED.store, EXCLUDED.selection, EXCLUDED.depends, EXCLUDED.on_delete)`,
    [
      col((x) => x.m.name),
      col((x) => x.fd.name),
      col((x) => x.fd.string),
      col((x) => x.fd.help ?? null),
      col((x) => x.fd.type),
      col((x) => x.fd.relation ?? null),
      col((x) => x.fd.inverseName ?? null),
      col((x) => x.fd.required),
      col((x) => x.fd.readonly),
      col((x) => x.fd.store),
      col((x) => x.fd.relationTable ?? null),
      col((x) => x.fd.column1 ?? null),
      col((x) => x.fd.column2 ?? null),
      col((x) => (x.fd.depends?.length ? x.fd.depends.join(',') : null)),
      // Odoo 15 keeps the options as the repr of a list of pairs in this (deprecated) column.
      col((x) => (x.fd.selection ? `[${x.fd.selection.map(([k, v]) => `('${k}', '${v}')`).join(', ')}]` : null)),
      col((x) => (x.fd.type === 'many2one' ? (x.fd.ondelete ?? (x.fd.required ? 'restrict' : 'set null')) : null)),
      env.uid,
    ],
  );
  await env.q.query(
    `DELETE FROM ${imf} f WHERE NOT EXISTS (SELECT 1 FROM unnest($1::text[], $2::text[]) AS x(model, name) WHERE x.model = f.model AND x.name = f.name)`,
    [col((x) => x.m.name), col((x) => x.fd.name)],
  );
  await env.q.query(
    `INSERT INTO ${tbl(env, 'ir.model.data')} (module, name, model, res_id, noupdate, create_uid, write_uid, create_date, write_date)
     SELECT 'base', 'model_' || replace(m.model, '.', '_'), 'ir.model', m.id, false, $1, $1, ${NOW}, ${NOW} FROM ${im} m
     ON CONFLICT (module, name) DO NOTHING`,
    [env.uid],
  );
}
