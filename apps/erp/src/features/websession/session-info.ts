/**
 * Odoo 15's `ir.http.session_info()`, the result of /web/session/authenticate and
 * /web/session/get_session_info, with the keys Odoo clients read (uid, user_context, db, name,
 * username, company_id, partner_id, user_companies, server_version...). Web-client-only keys that
 * depend on modules the embedded ERP lacks (cache hashes, menus, tours, notification settings) are
 * left out.
 */
import { SERVER_VERSION } from '@platform/erp-embedded';

import type { RpcGateway } from '../rpc/rpc-gateway.js';

type M2o = [number, string] | false;

export async function sessionInfo(
  gateway: RpcGateway,
  db: string,
  uid: number,
  baseUrl: string,
): Promise<Record<string, unknown>> {
  const [user] = (await gateway.callKw(
    db,
    uid,
    'res.users',
    'read',
    [[uid], ['name', 'login', 'partner_id', 'company_id', 'company_ids']],
    {},
  )) as Array<{
    name: string;
    login: string;
    partner_id: M2o;
    company_id: M2o;
    company_ids: number[];
  }>;
  if (!user) throw new Error(`user ${uid} vanished`);
  const companies = (await gateway.callKw(
    db,
    uid,
    'res.company',
    'read',
    [user.company_ids, ['name', 'sequence']],
    {},
  )) as Array<{ id: number; name: string; sequence: number }>;
  const currentCompany = user.company_id ? user.company_id[0] : false;
  // The embedded ERP has no groups: the superuser and the admin (uid 1 and 2) are the system users.
  const isSystem = uid <= 2;
  return {
    uid,
    is_system: isSystem,
    is_admin: isSystem,
    user_context: { lang: 'en_US', tz: false, uid },
    db,
    server_version: SERVER_VERSION.server_version,
    server_version_info: SERVER_VERSION.server_version_info,
    support_url: 'https://www.odoo.com/buy',
    name: user.name,
    username: user.login,
    partner_display_name: user.partner_id ? user.partner_id[1] : false,
    company_id: currentCompany,
    partner_id: user.partner_id ? user.partner_id[0] : false,
    'web.base.url': baseUrl,
    active_ids_limit: 20000,
    profile_session: null,
    profile_collectors: null,
    profile_params: null,
    max_file_upload_size: 134217728,
    home_action_id: false,
    user_companies: {
      current_company: currentCompany,
      allowed_companies: Object.fromEntries(
        companies.map((c) => [String(c.id), { id: c.id, name: c.name, sequence: c.sequence }]),
      ),
    },
    display_switch_company_menu: companies.length > 1,
    user_id: [uid],
    show_effect: true,
  };
}
