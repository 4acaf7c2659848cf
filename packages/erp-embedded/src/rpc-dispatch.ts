/** `/jsonrpc` services (`common`, `object`, `db`) mapped onto the embedded ERP, as Odoo's dispatch_rpc. */
import { dbService } from './db-service.js';
import type { EmbeddedErp } from './embedded-erp.js';
import { OdooError } from './errors.js';

export const SERVER_VERSION = {
  server_version: '15.0',
  server_version_info: [15, 0, 0, 'final', 0, ''],
  server_serie: '15.0',
  protocol_version: 1,
};

const nameError = (msg: string) => new OdooError('builtins.NameError', msg);
const pyType = (v: unknown) =>
  Array.isArray(v)
    ? 'list'
    : typeof v === 'string'
      ? 'str'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'int'
          : 'float'
        : typeof v === 'boolean'
          ? 'bool'
          : 'object';

export async function dispatchRpc(
  erp: EmbeddedErp,
  service: unknown,
  method: unknown,
  args: unknown[],
  context: Record<string, unknown> = {},
): Promise<unknown> {
  const a = (i: number) => args[i];
  if (service === 'common') {
    if (method === 'version') return SERVER_VERSION;
    if (method === 'about') return 'See http://openerp.com';
    if (method === 'login') return erp.authenticate(a(0), a(1), a(2));
    if (method === 'authenticate') {
      // Odoo 15: exp_authenticate(db, login, password, user_agent_env), the env merged as a mapping.
      if (args.length < 4)
        throw new OdooError(
          'builtins.TypeError',
          "exp_authenticate() missing 1 required positional argument: 'user_agent_env'",
        );
      const env = a(3);
      if (env !== null && env !== false && !(typeof env === 'object' && !Array.isArray(env))) {
        throw new OdooError('builtins.TypeError', `'${pyType(env)}' object is not a mapping`);
      }
      return erp.authenticate(a(0), a(1), a(2));
    }
    throw nameError(`Method not available ${String(method)}`);
  }
  if (service === 'object') {
    if (method === 'execute_kw') return erp.executeKw(a(0), a(1), a(2), a(3), a(4), a(5) ?? [], a(6) ?? {}, context);
    if (method === 'execute') return erp.executeKw(a(0), a(1), a(2), a(3), a(4), args.slice(5), {}, context);
    throw nameError(`Method not available ${String(method)}`);
  }
  if (service === 'db') {
    if (method === 'list') return erp.listDatabases();
    if (method === 'db_exist') return erp.databaseExists(String(a(0)));
    if (method === 'server_version') return SERVER_VERSION.server_version;
    if (typeof method === 'string') return dbService(erp, method, args);
    throw nameError(`Method not available ${String(method)}`);
  }
  throw nameError(`Service ${String(service)} not found`);
}
