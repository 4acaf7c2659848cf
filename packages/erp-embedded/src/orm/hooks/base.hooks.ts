/** Hooks of base models: users (passwords, partner, companies), companies (partner, journals), helpdesk, products. */
import { hashPassword } from '../../auth/password.js';
import { validationError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { asId, one, refId, rows, tbl } from '../lookup.js';
import type { RecordWrites } from '../record-writes.js';
import { companies } from '../rules.js';
import type { ModelHooks, Vals } from './hook-types.js';

/** The journals Odoo's generic chart of accounts gives a company (code, name, type). */
export const DEFAULT_JOURNALS: [string, string, string][] = [
  ['INV', 'Customer Invoices', 'sale'],
  ['BILL', 'Vendor Bills', 'purchase'],
  ['MISC', 'Miscellaneous Operations', 'general'],
  ['BNK1', 'Bank', 'bank'],
  ['CSH1', 'Cash', 'cash'],
];

const firstStage = async (env: Env, model: string) =>
  (await one<{ id: number }>(env, `SELECT id FROM ${tbl(env, model)} ORDER BY sequence, id LIMIT 1`))?.id;

async function prepareUser(
  env: Env,
  _m: ModelDef,
  vals: Vals,
  ids: number[] | undefined,
  { createRecord }: RecordWrites,
): Promise<void> {
  if ('password' in vals) {
    // Odoo ignores an empty password on write; a real one is stored hashed, never in clear.
    if (typeof vals.password === 'string' && vals.password) vals.password = await hashPassword(vals.password);
    else delete vals.password;
  }
  if (ids) return;
  if (!vals.partner_id) {
    const name = typeof vals.name === 'string' ? vals.name : typeof vals.login === 'string' ? vals.login : false;
    const email = vals.email ?? (typeof vals.login === 'string' && vals.login.includes('@') ? vals.login : false);
    vals.partner_id = await createRecord(env, env.registry.get('res.partner'), { name, email });
  }
  // Odoo: company_id defaults to env.company and company_ids to it (the main company must be allowed).
  const company =
    asId(vals.company_id) ?? asId(env.context.default_company_id) ?? ((await companies(env)).current || 1);
  vals.company_id ??= company;
  if (!('company_ids' in vals) && env.context.default_company_ids === undefined) vals.company_ids = [[6, 0, [company]]];
}

/** Odoo's `res.users._check_company`. */
async function validateUser(env: Env, _m: ModelDef, ids: number[]): Promise<void> {
  const rel = env.registry.get('res.users').fields.get('company_ids')!;
  const bad = await rows<{ login: string; company: string; allowed: string }>(
    env,
    `SELECT u.name AS login, c.name AS company,
            (SELECT string_agg(c2.name, ', ' ORDER BY c2.name) FROM "${env.schema}"."${rel.relationTable}" r
               JOIN ${tbl(env, 'res.company')} c2 ON c2.id = r.cid WHERE r.user_id = u.id) AS allowed
       FROM ${tbl(env, 'res.users')} u JOIN ${tbl(env, 'res.company')} c ON c.id = u.company_id
      WHERE u.id = ANY($1::integer[]) AND EXISTS (SELECT 1 FROM "${env.schema}"."${rel.relationTable}" r WHERE r.user_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM "${env.schema}"."${rel.relationTable}" r WHERE r.user_id = u.id AND r.cid = u.company_id)`,
    [ids],
  );
  if (bad[0]) {
    throw validationError(
      `Company ${bad[0].company} is not in the allowed companies for user ${bad[0].login} (${bad[0].allowed}).`,
    );
  }
}

/** Odoo creates the company's partner; the embedded ERP also gives it the default journals (chart template). */
async function afterCompanyCreate(
  userEnv: Env,
  m: ModelDef,
  id: number,
  vals: Vals,
  { createRecord }: RecordWrites,
): Promise<void> {
  // Odoo: the creator of a company may switch to it (and so passes the create rule on it).
  const rel = userEnv.registry.get('res.users').fields.get('company_ids')!;
  await userEnv.q.query(
    `INSERT INTO "${userEnv.schema}"."${rel.relationTable}" (user_id, cid) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [userEnv.uid, id],
  );
  userEnv.companies = undefined;
  const env: Env = { ...userEnv, su: true, companies: undefined };
  const c = (await one<{ name: string; partner_id: number | null }>(
    env,
    `SELECT name, partner_id FROM ${tbl(env, m.name)} WHERE id = $1`,
    [id],
  ))!;
  if (!c.partner_id) {
    const partner = await createRecord(env, env.registry.get('res.partner'), {
      name: c.name,
      is_company: true,
      company_id: id,
      email: vals.email ?? false,
      phone: vals.phone ?? false,
    });
    await env.q.query(`UPDATE ${tbl(env, m.name)} SET partner_id = $1 WHERE id = $2`, [partner, id]);
  }
  const journals = env.registry.get('account.journal');
  for (const [code, name, type] of DEFAULT_JOURNALS) {
    await createRecord(env, journals, {
      code,
      name,
      type,
      company_id: id,
      refund_sequence: type === 'sale' || type === 'purchase',
    });
  }
}

export const baseHooks: Record<string, ModelHooks> = {
  'res.users': {
    prepare: prepareUser,
    validate: validateUser,
    afterChange: (env) => env.onUsersChanged?.(),
  },
  'res.company': {
    async prepare(env, _m, vals, ids) {
      if (ids || vals.currency_id) return;
      const usd =
        (await refId(env, 'base.USD', 'res.currency')) ??
        (await one<{ id: number }>(env, `SELECT id FROM ${tbl(env, 'res.currency')} WHERE active ORDER BY id LIMIT 1`))
          ?.id;
      if (usd) vals.currency_id = usd;
    },
    afterCreate: afterCompanyCreate,
  },
  'helpdesk.ticket': {
    async prepare(env, _m, vals, ids) {
      // Enterprise puts a new ticket in the first stage (lowest sequence).
      if (!ids && !vals.stage_id) vals.stage_id = (await firstStage(env, 'helpdesk.stage')) ?? false;
    },
  },
  'product.product': {
    async prepare(env, _m, vals, ids) {
      if (!ids && !vals.categ_id && env.context.default_categ_id === undefined) {
        vals.categ_id = (await refId(env, 'product.product_category_all', 'product.category')) ?? false;
      }
      // Odoo's account module: a new product's customer taxes default to the company's default sale tax.
      if (!ids && !('taxes_id' in vals) && env.context.default_taxes_id === undefined) {
        const current = (await companies(env)).current;
        const c = await one<{ tax: number | null }>(
          env,
          `SELECT account_sale_tax_id AS tax FROM ${tbl(env, 'res.company')} WHERE id = $1`,
          [current],
        );
        if (c?.tax) vals.taxes_id = [[6, 0, [c.tax]]];
      }
    },
  },
};
