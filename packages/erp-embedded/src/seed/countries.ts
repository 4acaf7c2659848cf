/**
 * res.country and res.country.state from the `iso-3166` package (ISO 3166-1 countries, ISO 3166-2
 * subdivisions), so the list follows the standard rather than a hand-typed copy. A state's `code` is
 * the part after the country prefix (`US-CA` → `CA`), as in Odoo's data. Countries get Odoo's
 * external ids `base.<alpha-2 lowercase>` (`base.us`). Idempotent and cheap on a seeded database:
 * the counts are compared first, then set-based inserts skip what exists.
 */
import { iso31661, iso31662 } from 'iso-3166';

import type { Env } from '../orm/env.js';
import { one, tbl } from '../orm/lookup.js';

const NOW = `(now() at time zone 'utc')`;

export async function ensureCountries(env: Env): Promise<void> {
  const countries = tbl(env, 'res.country');
  const states = tbl(env, 'res.country.state');
  const have = await one<{ c: number; s: number }>(
    env,
    `SELECT (SELECT count(*)::integer FROM ${countries}) AS c, (SELECT count(*)::integer FROM ${states}) AS s`,
  );
  if (have && have.c >= iso31661.length && have.s >= iso31662.length) return;

  await env.q.query(
    `INSERT INTO ${countries} (name, code, create_uid, write_uid, create_date, write_date)
     SELECT x.name, x.code, $3, $3, ${NOW}, ${NOW} FROM unnest($1::text[], $2::text[]) AS x(name, code)
     ON CONFLICT (code) DO NOTHING`,
    [iso31661.map((c) => c.name), iso31661.map((c) => c.alpha2), env.uid],
  );
  await env.q.query(
    `INSERT INTO ${tbl(env, 'ir.model.data')} (module, name, model, res_id, noupdate, create_uid, write_uid, create_date, write_date)
     SELECT 'base', lower(c.code), 'res.country', c.id, true, $1, $1, ${NOW}, ${NOW} FROM ${countries} c WHERE c.code IS NOT NULL
     ON CONFLICT (module, name) DO NOTHING`,
    [env.uid],
  );
  // A subdivision's country is the first two letters of its code (its `parent` may be another subdivision).
  await env.q.query(
    `INSERT INTO ${states} (country_id, name, code, create_uid, write_uid, create_date, write_date)
     SELECT c.id, x.name, substr(x.code, 4), $3, $3, ${NOW}, ${NOW}
       FROM unnest($1::text[], $2::text[]) AS x(code, name) JOIN ${countries} c ON c.code = substr(x.code, 1, 2)
     ON CONFLICT (country_id, code) DO NOTHING`,
    [iso31662.map((s) => s.code), iso31662.map((s) => s.name), env.uid],
  );
}
