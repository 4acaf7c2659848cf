/**
 * The `Erp` port over an in-process EmbeddedErp, for platform code that runs inside the ERP host
 * (the REST API). It goes through `authenticate` and `executeKw` with a login and an API key, exactly
 * as the Odoo JSON-RPC adapter does over `/jsonrpc`, and maps errors to the same AppError codes, so
 * code written against it works unchanged in front of Odoo (the ERP contract suite runs on both).
 * In-process rather than HTTP to the host's own `/jsonrpc`: no loopback hop and JSON round trip per
 * call, no dependency on the server listening first, and tests can use `inject()`.
 */
import {
  type Erp,
  type ErpRecord,
  type ErpVersion,
  searchKwargs,
  type SearchOptions,
  type SearchReadOptions,
  withContext,
} from '@platform/erp';
import { AppError } from '@platform/kernel';

import type { EmbeddedErp } from './embedded-erp.js';
import { OdooError } from './errors.js';
import { SERVER_VERSION } from './rpc-dispatch.js';

export interface EmbeddedErpAdapterConfig {
  db: string;
  login: string;
  /** Password or API key; a function is re-read on every authentication (the key file can change). */
  secret: string | (() => string);
}

type Ctx = Record<string, unknown> | undefined;

export function createEmbeddedErpAdapter(embedded: EmbeddedErp, cfg: EmbeddedErpAdapterConfig): Erp {
  const secretOf = () => (typeof cfg.secret === 'function' ? cfg.secret() : cfg.secret);
  let session: Promise<{ uid: number; secret: string }> | undefined;

  const login = () => {
    if (session) return session;
    const p = (async () => {
      const secret = secretOf();
      const uid = await guard('authenticate', () => embedded.authenticate(cfg.db, cfg.login, secret));
      if (typeof uid !== 'number') {
        throw new AppError('ERP_AUTH_FAILED', 'ERP refused the login or secret', {
          details: { db: cfg.db, login: cfg.login },
        });
      }
      return { uid, secret };
    })();
    session = p;
    p.catch(() => {
      if (session === p) session = undefined;
    });
    return p;
  };

  async function exec(model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) {
    const { uid, secret } = await login();
    try {
      const r = await guard(method, () => embedded.executeKw(cfg.db, uid, secret, model, method, args, kwargs), model);
      // Odoo omits `result` for None; the JSON-RPC adapter then answers null.
      return r === undefined ? null : r;
    } catch (e) {
      if (e instanceof AppError && e.code === 'ERP_AUTH_FAILED') session = undefined;
      throw e;
    }
  }

  return {
    async version(): Promise<ErpVersion> {
      return {
        serverVersion: SERVER_VERSION.server_version,
        serverSerie: SERVER_VERSION.server_serie,
        protocolVersion: 1,
      };
    },
    authenticate: async () => (await login()).uid,
    async create(model, values, context?: Ctx) {
      const r = await exec(model, 'create', [values], withContext({}, context));
      const id = Array.isArray(r) && r.length === 1 ? r[0] : r;
      if (typeof id !== 'number') throw unexpected('create');
      return id;
    },
    async write(model, ids, values) {
      const r = await exec(model, 'write', [ids, values]);
      return r === null || r === true;
    },
    async read(model, ids, fields?) {
      return (await exec(model, 'read', [ids], fields ? { fields } : {})) as ErpRecord[];
    },
    async search(model, domain, opts: SearchOptions = {}) {
      return (await exec(model, 'search', [domain], searchKwargs(opts))) as number[];
    },
    async searchRead(model, domain, opts: SearchReadOptions = {}) {
      const kw = searchKwargs(opts);
      if (opts.fields) kw.fields = opts.fields;
      return (await exec(model, 'search_read', [domain], kw)) as ErpRecord[];
    },
    async searchCount(model, domain, context?: Ctx) {
      return (await exec(model, 'search_count', [domain], withContext({}, context))) as number;
    },
    async unlink(model, ids) {
      const r = await exec(model, 'unlink', [ids]);
      return r === null || r === true;
    },
    async fieldsGet(model, attributes?) {
      return (await exec(model, 'fields_get', [], attributes ? { attributes } : {})) as Record<
        string,
        Record<string, unknown>
      >;
    },
    call: (model, method, args, kwargs) => exec(model, method, args, kwargs ?? {}),
  };
}

/** Runs one ERP call and maps Odoo exceptions as the JSON-RPC client does (odoo.client.ts). */
async function guard<T>(method: string, fn: () => Promise<T>, model?: string): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof OdooError)) throw e;
    const details = { method, ...(model !== undefined ? { model } : {}), name: e.odooName, message: e.message };
    if (e.odooName === 'odoo.exceptions.AccessDenied') {
      throw new AppError('ERP_AUTH_FAILED', 'ERP refused the credentials (AccessDenied)', { details });
    }
    if (e.odooName.startsWith('psycopg2.'))
      throw new AppError('ERP_UNAVAILABLE', `ERP database error: ${e.message}`, { details });
    throw new AppError('ERP_REJECTED', `ERP rejected the call: ${e.message}`, { details });
  }
}

const unexpected = (method: string) =>
  new AppError('ERP_UNAVAILABLE', `ERP answered ${method} with an unexpected value`, { details: { method } });
