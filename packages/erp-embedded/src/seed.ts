/**
 * Records every new ERP database starts with, as after installing Odoo with base, crm, sale,
 * purchase, account, helpdesk and fieldservice: OdooBot (uid 1, inactive), the company (with its
 * partner and journals), the administrator (uid 2, login `admin`, member of the company), then the
 * module data of seed/base-data.ts, and their external ids.
 */
import type { Env } from './orm/env.js';
import { createRecord, write } from './orm/write.js';
import { qt } from './schema.js';
import { BASE_MODULES, ensureBaseData, ensureCurrencies } from './seed/base-data.js';
import { Seeder } from './seed/ensure.js';

export async function seedDatabase(rootEnv: Env, adminPassword: string, adminLogin = 'admin'): Promise<void> {
  const users = qt(rootEnv.schema, 'res_users');
  // uid 1 must exist before anything else: every row's create_uid points at it.
  await rootEnv.q.query(`INSERT INTO ${users} (id, name, login, active, create_date, write_date)
    VALUES (1, 'OdooBot', '__system__', false, now() at time zone 'utc', now() at time zone 'utc')`);
  await rootEnv.q.query(`SELECT setval(pg_get_serial_sequence('${rootEnv.schema}.res_users', 'id'), 1)`);
  const R = (m: string) => rootEnv.registry.get(m);
  const s = await Seeder.load(rootEnv, BASE_MODULES);
  await ensureCurrencies(s);

  // The company's partner and journals come from the res.company hooks.
  const companyId = await createRecord(rootEnv, R('res.company'), { name: 'My Company' });
  const botPartner = await createRecord(rootEnv, R('res.partner'), { name: 'OdooBot', active: false });
  await write(rootEnv, R('res.users'), [1], {
    partner_id: botPartner,
    company_id: companyId,
    company_ids: [[6, 0, [companyId]]],
  });
  // A fresh env: the bot's company is known from now on.
  const env: Env = { ...rootEnv, companies: undefined };
  const adminId = await createRecord(env, R('res.users'), {
    name: 'Administrator',
    login: adminLogin,
    password: adminPassword,
    company_id: companyId,
    company_ids: [[6, 0, [companyId]]],
  });
  const ids = async (table: string, id: number, col: string) =>
    (await env.q.query<Record<string, number>>(`SELECT ${col} FROM ${qt(env.schema, table)} WHERE id = $1`, [id]))
      .rows[0]![col]!;

  await s.name('base.main_company', 'res.company', companyId);
  await s.name('base.main_partner', 'res.partner', await ids('res_company', companyId, 'partner_id'));
  await s.name('base.partner_root', 'res.partner', botPartner);
  await s.name('base.user_root', 'res.users', 1);
  await s.name('base.user_admin', 'res.users', adminId);
  await s.name('base.partner_admin', 'res.partner', await ids('res_users', adminId, 'partner_id'));
  await ensureBaseData(env);
}
