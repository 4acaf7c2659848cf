/**
 * The ERP's databases as the provisioning sees them, over Odoo 15's JSON-RPC `db` and `common`
 * services: create a tenant's database, its service account and the account's API key, drop it
 * (purge), and check that an outside Odoo 15 accepts a login before a tenant is routed to it.
 * Over the wire on purpose: the embedded ERP may run in another process (or host) than the caller.
 */
import { createOdooErp, createOdooRpcClient } from '@platform/erp';
import { AppError } from '@platform/kernel';

export interface ErpDatabasesOptions {
  url: string;
  masterPassword: string;
  timeoutMs: number;
}

export interface ServiceAccount {
  login: string;
  apiKey: string;
}

/**
 * Creating or dropping a database is not an ordinary call: Odoo installs its modules (minutes on a
 * real Odoo 15) and the embedded ERP migrates a new schema, which a loaded two-core machine can
 * stretch past a minute. These calls, and the first ones on the new database, wait this long at least.
 */
export const DB_ADMIN_TIMEOUT_MS = 300_000;

export class ErpDatabases {
  constructor(private readonly o: ErpDatabasesOptions) {}

  private get adminTimeoutMs(): number {
    return Math.max(this.o.timeoutMs, DB_ADMIN_TIMEOUT_MS);
  }

  private rpc(secrets: string[] = [], timeoutMs = this.o.timeoutMs) {
    return createOdooRpcClient({
      url: this.o.url,
      timeoutMs,
      secrets: [this.o.masterPassword, ...secrets],
    });
  }

  async list(): Promise<string[]> {
    return (await this.rpc().call('db', 'list', [])) as string[];
  }

  async exists(name: string): Promise<boolean> {
    return (await this.rpc().call('db', 'db_exist', [name])) === true;
  }

  /** `db.create_database` with a fresh administrator (its password is the caller's to keep or forget). */
  async create(name: string, adminPassword: string): Promise<void> {
    await this.rpc([adminPassword], this.adminTimeoutMs).call('db', 'create_database', [
      this.o.masterPassword,
      name,
      false,
      'en_US',
      adminPassword,
      'admin',
    ]);
  }

  /** `db.drop`: false when there was no such database. */
  async drop(name: string): Promise<boolean> {
    return (await this.rpc([], this.adminTimeoutMs).call('db', 'drop', [this.o.masterPassword, name])) === true;
  }

  /**
   * The tenant's service account: an ordinary internal user (not the administrator) created by the
   * database's admin through `execute_kw`, then its RPC-scoped API key through the master-password
   * call `create_service_api_key` (Odoo's own key wizard needs an interactive identity check).
   */
  async createServiceAccount(db: string, adminPassword: string, login: string): Promise<ServiceAccount> {
    const admin = createOdooErp({
      url: this.o.url,
      db,
      login: 'admin',
      secret: adminPassword,
      timeoutMs: this.adminTimeoutMs,
    });
    const [company] = await admin.search('res.company', [], { limit: 1 });
    await admin.create('res.users', {
      name: 'Platform service account',
      login,
      ...(company ? { company_id: company, company_ids: [[6, 0, [company]]] } : {}),
    });
    const apiKey = (await this.rpc().call('db', 'create_service_api_key', [
      this.o.masterPassword,
      db,
      login,
      'platform service account',
    ])) as string;
    return { login, apiKey };
  }
}

/**
 * An outside Odoo 15 must answer `common.version` as a 15.x server and accept the service account's
 * login and key (`common.authenticate`) before a tenant is routed to it.
 */
export async function verifyOutsideErp(
  target: { url: string; db: string; login: string; apiKey: string },
  timeoutMs: number,
): Promise<void> {
  const erp = createOdooErp({ url: target.url, db: target.db, login: target.login, secret: target.apiKey, timeoutMs });
  let version: string;
  try {
    version = (await erp.version()).serverVersion;
  } catch (e) {
    throw new AppError('ERP_UNAVAILABLE', `The ERP at ${target.url} did not answer: ${(e as Error).message}`);
  }
  if (!/^15\./.test(version))
    throw new AppError('VALIDATION_FAILED', `The ERP answers version ${version}; Odoo 15 is required.`, {
      fieldIssues: [{ field: 'erp.url', rule: 'odoo_15', message: `must be an Odoo 15 server (found ${version})` }],
    });
  try {
    await erp.authenticate();
  } catch (e) {
    if (e instanceof AppError && e.code === 'ERP_AUTH_FAILED')
      throw new AppError('VALIDATION_FAILED', 'The ERP refused the service account.', {
        fieldIssues: [
          {
            field: 'erp.api_key',
            rule: 'accepted',
            message: 'must be accepted by the ERP for this login and database',
          },
        ],
      });
    throw e;
  }
}
