/**
 * The `Erp` port over Odoo's external API: `common.authenticate` once (uid cached), then
 * `object.execute_kw(db, uid, secret, model, method, args, kwargs)` for everything else. Odoo
 * re-checks the secret on every execute_kw, so an API key works exactly like a password here.
 */
import { AppError } from '@platform/kernel';

import { searchKwargs, withContext } from '../erp.kwargs.js';
import { type ErpCallObserver, observeErp } from '../erp.observed.js';
import type { Domain, Erp, ErpRecord, ErpValues, ErpVersion, SearchOptions, SearchReadOptions } from '../erp.port.js';
import { createOdooRpcClient, type OdooRpcClient } from './odoo.client.js';

export interface OdooErpConfig {
  url: string;
  db: string;
  login: string;
  /** Password or API key (40 hex characters, no prefix, since Odoo 14). */
  secret: string;
  timeoutMs?: number;
  /** Told after every port call (the metrics hook; see observeErp). */
  onCall?: ErpCallObserver;
}

type Ctx = Record<string, unknown> | undefined;

export function createOdooErp(cfg: OdooErpConfig): Erp {
  const rpc: OdooRpcClient = createOdooRpcClient({
    url: cfg.url,
    secrets: [cfg.secret],
    ...(cfg.timeoutMs !== undefined ? { timeoutMs: cfg.timeoutMs } : {}),
  });
  let uid: Promise<number> | undefined;

  const authenticate = (): Promise<number> => {
    if (uid) return uid;
    const p = (async () => {
      const r = await rpc.call('common', 'authenticate', [cfg.db, cfg.login, cfg.secret, {}]);
      if (typeof r === 'number' && Number.isInteger(r) && r > 0) return r;
      if (r === false || r === null) {
        throw new AppError('ERP_AUTH_FAILED', 'ERP refused the login or secret', {
          details: { db: cfg.db, login: cfg.login },
        });
      }
      throw unexpected('authenticate', r);
    })();
    uid = p;
    // Never cache a failure: the next call tries again (the ERP may be back, the key fixed).
    p.catch(() => {
      if (uid === p) uid = undefined;
    });
    return p;
  };

  async function exec(model: string, method: string, args: unknown[], kwargs: Record<string, unknown> = {}) {
    const u = await authenticate();
    try {
      return await rpc.call('object', 'execute_kw', [cfg.db, u, cfg.secret, model, method, args, kwargs], {
        model,
        method,
      });
    } catch (e) {
      // The key was revoked or the user archived since we authenticated: forget the uid.
      if (e instanceof AppError && e.code === 'ERP_AUTH_FAILED') uid = undefined;
      throw e;
    }
  }

  const erp: Erp = {
    async version(): Promise<ErpVersion> {
      const r = await rpc.call('common', 'version', []);
      if (!isRecord(r) || typeof r.server_version !== 'string') throw unexpected('version', r);
      return {
        serverVersion: r.server_version,
        serverSerie: typeof r.server_serie === 'string' ? r.server_serie : r.server_version,
        protocolVersion: typeof r.protocol_version === 'number' ? r.protocol_version : 1,
      };
    },

    authenticate,

    async create(model, values: ErpValues, context?: Ctx) {
      const r = await exec(model, 'create', [values], withContext({}, context));
      // create([dict]) answers [id]; the port sends one dict, but accept both.
      const id = Array.isArray(r) && r.length === 1 ? r[0] : r;
      if (typeof id !== 'number') throw unexpected('create', r);
      return id;
    },

    async write(model, ids, values) {
      const r = await exec(model, 'write', [ids, values]);
      return r === null ? true : r === true;
    },

    async read(model, ids, fields?) {
      const r = await exec(model, 'read', [ids], fields ? { fields } : {});
      return records('read', r);
    },

    async search(model, domain: Domain, opts: SearchOptions = {}) {
      const r = await exec(model, 'search', [domain], searchKwargs(opts));
      if (!Array.isArray(r) || !r.every((x) => typeof x === 'number')) throw unexpected('search', r);
      return r as number[];
    },

    async searchRead(model, domain: Domain, opts: SearchReadOptions = {}) {
      const kw = searchKwargs(opts);
      if (opts.fields) kw.fields = opts.fields;
      return records('search_read', await exec(model, 'search_read', [domain], kw));
    },

    async searchCount(model, domain: Domain, context?: Ctx) {
      const r = await exec(model, 'search_count', [domain], withContext({}, context));
      if (typeof r !== 'number') throw unexpected('search_count', r);
      return r;
    },

    async unlink(model, ids) {
      const r = await exec(model, 'unlink', [ids]);
      return r === null ? true : r === true;
    },

    async fieldsGet(model, attributes?) {
      const r = await exec(model, 'fields_get', [], attributes ? { attributes } : {});
      if (!isRecord(r)) throw unexpected('fields_get', r);
      return r as Record<string, Record<string, unknown>>;
    },

    /** Any public method; resolves to null when the method returned None. */
    async call(model, method, args, kwargs) {
      return exec(model, method, args, kwargs ?? {});
    },
  };
  return cfg.onCall ? observeErp(erp, cfg.onCall) : erp;
}

function records(method: string, r: unknown): ErpRecord[] {
  if (!Array.isArray(r) || !r.every((x) => isRecord(x) && typeof x.id === 'number')) throw unexpected(method, r);
  return r as ErpRecord[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unexpected(method: string, r: unknown): AppError {
  const shape = Array.isArray(r) ? 'array' : r === null ? 'null' : typeof r;
  return new AppError('ERP_UNAVAILABLE', `ERP answered ${method} with an unexpected ${shape}`, {
    details: { method },
  });
}
