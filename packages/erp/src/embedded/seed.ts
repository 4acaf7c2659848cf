/**
 * Records every new ERP database starts with, as after installing Odoo with base, crm and helpdesk:
 * OdooBot (uid 1, inactive), the company, the administrator (uid 2, login `admin`), the helpdesk
 * team "Customer Care" with stages New / In Progress / Solved, and their external ids.
 */
import { qt } from './schema.js';
import type { Env } from './orm/env.js';
import { createRecord, write } from './orm/write.js';

export async function seedDatabase(env: Env, adminPassword: string, adminLogin = 'admin'): Promise<void> {
  const users = qt(env.schema, 'res_users');
  // uid 1 must exist before anything else: every row's create_uid points at it.
  await env.q.query(`INSERT INTO ${users} (id, name, login, active, create_date, write_date)
    VALUES (1, 'OdooBot', '__system__', false, now() at time zone 'utc', now() at time zone 'utc')`);
  await env.q.query(`SELECT setval(pg_get_serial_sequence('${env.schema}.res_users', 'id'), 1)`);
  const R = (m: string) => env.registry.get(m);

  const companyId = await createRecord(env, R('res.company'), { name: 'My Company' });
  const companyPartner = await createRecord(env, R('res.partner'), { name: 'My Company', is_company: true, company_id: companyId });
  await write(env, R('res.company'), [companyId], { partner_id: companyPartner });
  const botPartner = await createRecord(env, R('res.partner'), { name: 'OdooBot', active: false });
  await write(env, R('res.users'), [1], { partner_id: botPartner, company_id: companyId });
  const adminId = await createRecord(env, R('res.users'), {
    name: 'Administrator',
    login: adminLogin,
    password: adminPassword,
    company_id: companyId,
  });
  const [adminPartner] = (await env.q.query<{ partner_id: number }>(`SELECT partner_id FROM ${users} WHERE id = $1`, [adminId])).rows;

  const team = await createRecord(env, R('helpdesk.team'), { name: 'Customer Care', sequence: 1 });
  const stage = (name: string, sequence: number, fold = false) => createRecord(env, R('helpdesk.stage'), { name, sequence, fold });
  const stages = [await stage('New', 0), await stage('In Progress', 1), await stage('Solved', 2, true)];

  const xmlids: [string, string, string, number][] = [
    ['base', 'main_company', 'res.company', companyId],
    ['base', 'main_partner', 'res.partner', companyPartner],
    ['base', 'partner_root', 'res.partner', botPartner],
    ['base', 'user_root', 'res.users', 1],
    ['base', 'user_admin', 'res.users', adminId],
    ['base', 'partner_admin', 'res.partner', adminPartner!.partner_id],
    ['helpdesk', 'helpdesk_team1', 'helpdesk.team', team],
    ['helpdesk', 'stage_new', 'helpdesk.stage', stages[0]!],
    ['helpdesk', 'stage_in_progress', 'helpdesk.stage', stages[1]!],
    ['helpdesk', 'stage_solved', 'helpdesk.stage', stages[2]!],
  ];
  for (const [module, name, model, res_id] of xmlids) {
    await createRecord(env, R('ir.model.data'), { module, name, model, res_id, noupdate: true });
  }
}
