/**
 * Odoo 15's `db` service (odoo/service/db.py `dispatch`) on the embedded ERP. `list`, `db_exist` and
 * `server_version` are open; every other method takes the master password (`admin_passwd`) first and
 * refuses with AccessDenied when it is wrong, or when the ERP has none configured.
 *
 * `create_service_api_key` is ours, not Odoo's: Odoo 15 creates an API key only through the
 * `res.users.apikeys.description` wizard, behind `check_identity` (an interactive password re-entry
 * in a web session), which an unattended provisioning cannot pass. So the embedded ERP offers the
 * narrowest admin call that does it: guarded by the master password, for one named, active,
 * non-administrator user, returning the key once (stored hashed, as every key).
 */
import { timingSafeEqual } from 'node:crypto';

import { createApiKey } from './auth/apikeys.js';
import type { EmbeddedErp } from './embedded-erp.js';
import { accessDenied, OdooError, valueError } from './errors.js';
import { qt } from './schema.js';
import { seedDemo } from './seed/demo.js';

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || v === '') throw valueError(`${what} must be a non-empty string`);
  return v;
};

function checkMaster(erp: EmbeddedErp, given: unknown): void {
  const expected = erp.masterPassword;
  if (!expected || typeof given !== 'string') throw accessDenied();
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw accessDenied();
}

/** The `db` service's methods that take the master password (rpc-dispatch.ts answers the open ones). */
export async function dbService(erp: EmbeddedErp, method: string, args: unknown[]): Promise<unknown> {
  const [master, ...rest] = args;
  switch (method) {
    // exp_create_database(db_name, demo, lang, user_password='admin', login='admin', country_code=None, phone=None)
    case 'create_database': {
      checkMaster(erp, master);
      const name = str(rest[0], 'db_name');
      const password = rest[3] === undefined ? 'admin' : str(rest[3], 'user_password');
      const login = rest[4] === undefined ? 'admin' : str(rest[4], 'login');
      // The embedded ERP speaks en_US only and keeps the company's country and phone unset.
      if (rest[2] !== undefined && rest[2] !== false && rest[2] !== 'en_US')
        throw valueError(`Unsupported language: ${String(rest[2])} (the embedded ERP has en_US only)`);
      await erp.createDatabase(name, { adminPassword: password, adminLogin: login });
      if (rest[1] === true) await seedDemo(erp, name);
      return true;
    }
    // exp_drop(db_name): False when there is no such database.
    case 'drop': {
      checkMaster(erp, master);
      const name = str(rest[0], 'db_name');
      if (!(await erp.databaseExists(name))) return false;
      await erp.dropDatabase(name);
      return true;
    }
    case 'create_service_api_key': {
      checkMaster(erp, master);
      const db = str(rest[0], 'db_name');
      const login = str(rest[1], 'login');
      const description = str(rest[2], 'description');
      const schema = await erp.schema(db);
      const r = await erp.db.query<{ id: number; active: boolean }>(
        `SELECT id, active FROM ${qt(schema, 'res_users')} WHERE login = $1`,
        [login],
      );
      const user = r.rows[0];
      if (!user?.active) throw valueError(`No active user with login '${login}'`);
      // uid 1 is the superuser, uid 2 the administrator: a service key never carries their rights.
      if (user.id <= 2)
        throw new OdooError('odoo.exceptions.AccessError', 'Service keys are for service accounts only.');
      return (await createApiKey(erp.db, schema, user.id, description, 'rpc')).key;
    }
    default:
      throw new OdooError('builtins.NameError', `Method not available ${method}`);
  }
}
