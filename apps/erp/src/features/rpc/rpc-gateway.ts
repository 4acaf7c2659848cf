/**
 * The one entry point of Odoo's RPC services for every codec: `/jsonrpc`, XML-RPC and the web
 * session routes decode their envelope, call `dispatch` (or `login`), and encode what comes back.
 * So company rules, API-key scopes (the ERP's credential check) and the failed-login rules below
 * are the same whatever the protocol.
 *
 * Failed logins: every refused credential (authenticate → false, AccessDenied from execute_kw, a
 * refused web login) is audited and counted per client IP (AuthFailures: the REST API's audit trail
 * and shared limiter). Past the limit the IP is refused like Odoo 15's login cooldown, with its
 * AccessDenied text, until the window ends.
 */
import type { AuditEntry } from '@platform/credentials';
import { accessDenied, dispatchRpc, type EmbeddedErp, OdooError } from '@platform/erp-embedded';
import { AppError } from '@platform/kernel';

export type RpcProtocol = 'jsonrpc' | 'xmlrpc' | 'web';

export interface RpcCall {
  protocol: RpcProtocol;
  service: unknown;
  method: unknown;
  args: unknown[];
  context?: Record<string, unknown>;
  clientIp: string;
}

/** AuthFailures of the REST API: audits, then throws RATE_LIMITED past the per-IP limit. */
export interface FailedLoginSink {
  record(clientIp: string, entry: Omit<AuditEntry, 'event' | 'clientIp'>): Promise<void>;
}

export const tooManyFailures = () =>
  new OdooError('odoo.exceptions.AccessDenied', 'Too many login failures, please wait a bit before trying again.');

const CREDENTIAL_CALLS = new Set(['common.authenticate', 'common.login', 'object.execute_kw', 'object.execute']);
/** `db` methods that take the master password first: never logged, counted like failed logins. */
const OPEN_DB_CALLS = new Set(['list', 'db_exist', 'server_version']);
const short = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, 100) : null);

export class RpcGateway {
  private readonly blocked = new Map<string, number>();

  constructor(
    readonly erp: EmbeddedErp,
    private readonly failures?: FailedLoginSink,
    private readonly now: () => number = Date.now,
  ) {}

  async dispatch(call: RpcCall): Promise<unknown> {
    const checksCredentials = CREDENTIAL_CALLS.has(`${String(call.service)}.${String(call.method)}`);
    if (call.service === 'db' && !OPEN_DB_CALLS.has(String(call.method))) return this.masterCall(call);
    if (!checksCredentials) return dispatchRpc(this.erp, call.service, call.method, call.args, call.context ?? {});
    this.assertNotBlocked(call.clientIp);
    const login = call.service === 'common' ? short(call.args[1]) : `uid:${short(call.args[1])}`;
    try {
      const result = await dispatchRpc(this.erp, call.service, call.method, call.args, call.context ?? {});
      if (result === false) await this.failed(call.clientIp, call.protocol, call.args[0], login);
      return result;
    } catch (e) {
      if (e instanceof OdooError && e.odooName === 'odoo.exceptions.AccessDenied')
        await this.failed(call.clientIp, call.protocol, call.args[0], login);
      throw e;
    }
  }

  /** A master-password call of the `db` service: a wrong password counts as a failed login. */
  private async masterCall(call: RpcCall): Promise<unknown> {
    this.assertNotBlocked(call.clientIp);
    try {
      return await dispatchRpc(this.erp, call.service, call.method, call.args, call.context ?? {});
    } catch (e) {
      if (e instanceof OdooError && e.odooName === 'odoo.exceptions.AccessDenied')
        await this.failed(call.clientIp, call.protocol, null, 'db master password');
      throw e;
    }
  }

  /** A web (interactive) login: the password only, never an API key, as Odoo 15. */
  async login(db: unknown, login: unknown, password: unknown, clientIp: string): Promise<number> {
    this.assertNotBlocked(clientIp);
    const uid = await this.erp.authenticate(db, login, password, { interactive: true });
    if (uid === false) {
      await this.failed(clientIp, 'web', db, short(login));
      throw accessDenied();
    }
    return uid;
  }

  /** A model call of a caller the web session store has already authenticated. */
  callKw(
    db: string,
    uid: number,
    model: unknown,
    method: unknown,
    args: unknown,
    kwargs: unknown,
    context: Record<string, unknown> = {},
  ): Promise<unknown> {
    return this.erp.callKw(db, uid, model, method, args, kwargs, context);
  }

  private assertNotBlocked(ip: string): void {
    const until = this.blocked.get(ip);
    if (until === undefined) return;
    if (until > this.now()) throw tooManyFailures();
    this.blocked.delete(ip);
  }

  private async failed(ip: string, protocol: RpcProtocol, db: unknown, login: string | null): Promise<void> {
    if (!this.failures) return;
    try {
      await this.failures.record(ip, {
        login,
        detail: { protocol, db: short(db), reason: 'wrong login, uid, password or API key' },
      });
    } catch (e) {
      if (!(e instanceof AppError && e.code === 'RATE_LIMITED')) throw e;
      const retryAfter = Number(e.details?.retry_after ?? 60);
      if (this.blocked.size > 10_000) this.blocked.clear();
      this.blocked.set(ip, this.now() + retryAfter * 1000);
    }
  }
}
