/**
 * The embedded ERP service: ERP databases (one PostgreSQL schema `erp_<name>` each, listed in
 * `public.erp_databases`), credentials and API keys, and `execute_kw` over the ORM.
 */
import { randomBytes } from 'node:crypto';

import type { Db, Queryable } from '@platform/db';

import { type ApiKeyInfo, createApiKey, listApiKeys, revokeApiKey, sha256 } from './auth/apikeys.js';
import { CredentialChecker } from './auth/credentials.js';
import { fromPgError, OdooError, valueError } from './errors.js';
import { defaultRegistry } from './models/index.js';
import { backfillComputes } from './orm/compute.js';
import type { Env } from './orm/env.js';
import { resolveMethod } from './orm/methods.js';
import { write } from './orm/write.js';
import type { Registry } from './registry.js';
import { ensureSchema, qi } from './schema.js';
import { seedDatabase } from './seed.js';
import { ensureBaseData } from './seed/base-data.js';

export interface EmbeddedErpOptions {
  registry?: Registry;
  /** How long a successful credential check is trusted without re-checking (default 10 s). */
  checkCacheTtlMs?: number;
  /** Master password of the `db` service (Odoo's `admin_passwd`); unset: those calls are refused. */
  masterPassword?: string;
}

const DB_NAME_RE = /^[a-z0-9][a-z0-9_]{0,49}$/;
const CATALOG = 'public.erp_databases';

export const schemaOf = (name: string) => `erp_${name}`;
const noDatabase = (name: string) =>
  new OdooError('psycopg2.OperationalError', `FATAL:  database "${name}" does not exist\n`);
const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class EmbeddedErp {
  readonly registry: Registry;
  readonly credentials: CredentialChecker;
  private readonly ready = new Map<string, Promise<string>>();
  private catalogReady: Promise<void> | undefined;
  readonly masterPassword: string | undefined;

  constructor(
    readonly db: Db,
    opts: EmbeddedErpOptions = {},
  ) {
    this.registry = opts.registry ?? defaultRegistry();
    this.credentials = new CredentialChecker(opts.checkCacheTtlMs ?? 10_000);
    this.masterPassword = opts.masterPassword;
  }

  /** Creates the catalog once per process; a failure is not remembered, so the next call retries. */
  private catalog(): Promise<void> {
    this.catalogReady ??= this.db
      .transaction(async (q) => {
        // Two processes (or pools) creating the table at once race on PostgreSQL without the lock.
        await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [CATALOG]);
        await q.query(
          `CREATE TABLE IF NOT EXISTS ${CATALOG} (name text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())`,
        );
      })
      .catch((e: unknown) => {
        this.catalogReady = undefined;
        throw e;
      });
    return this.catalogReady;
  }

  async listDatabases(): Promise<string[]> {
    await this.catalog();
    return (await this.db.query<{ name: string }>(`SELECT name FROM ${CATALOG} ORDER BY name`)).rows.map((r) => r.name);
  }

  async databaseExists(name: string): Promise<boolean> {
    await this.catalog();
    return (await this.db.query(`SELECT 1 FROM ${CATALOG} WHERE name = $1`, [name])).rows.length > 0;
  }

  /** Creates the schema, its tables and the seed records in one transaction. */
  async createDatabase(
    name: string,
    opts: { adminPassword?: string; adminLogin?: string } = {},
  ): Promise<{ adminPassword: string }> {
    if (!DB_NAME_RE.test(name)) throw valueError(`Invalid database name: '${name}' (use a-z, 0-9 and _)`);
    await this.catalog();
    const adminPassword = opts.adminPassword || randomBytes(12).toString('base64url');
    await this.db.transaction(async (q) => {
      await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`erp-db:${name}`]);
      if ((await q.query(`SELECT 1 FROM ${CATALOG} WHERE name = $1`, [name])).rows.length > 0) {
        throw new OdooError('odoo.exceptions.UserError', `Database already exists: ${name}`);
      }
      const schema = schemaOf(name);
      await ensureSchema(q, schema, this.registry);
      await seedDatabase(this.env(q, schema, 1, {}), adminPassword, opts.adminLogin);
      await q.query(`INSERT INTO ${CATALOG} (name) VALUES ($1)`, [name]);
    });
    this.ready.set(name, Promise.resolve(schemaOf(name)));
    return { adminPassword };
  }

  async dropDatabase(name: string): Promise<void> {
    if (!(await this.databaseExists(name))) throw noDatabase(name);
    await this.db.transaction(async (q) => {
      await q.query(`DROP SCHEMA IF EXISTS ${qi(schemaOf(name))} CASCADE`);
      await q.query(`DELETE FROM ${CATALOG} WHERE name = $1`, [name]);
    });
    this.ready.delete(name);
    this.credentials.invalidate(name);
  }

  /** The schema of an existing database, its tables brought up to date once per process. */
  async schema(name: unknown): Promise<string> {
    if (typeof name !== 'string') throw noDatabase(String(name));
    let p = this.ready.get(name);
    if (!p) {
      p = (async () => {
        if (!(await this.databaseExists(name))) throw noDatabase(name);
        await this.db.transaction(async (q) => {
          // Two processes starting at once must not race on CREATE TABLE / ADD CONSTRAINT.
          await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`erp-db:${name}`]);
          const env = this.env(q, schemaOf(name), 1, {});
          await backfillComputes(env, await ensureSchema(q, schemaOf(name), this.registry));
          // Module data added since the database was created (journals, sequences, stages...).
          await ensureBaseData(env);
        });
        return schemaOf(name);
      })();
      this.ready.set(name, p);
      p.catch(() => this.ready.delete(name));
    }
    return p;
  }

  env(q: Queryable, schema: string, uid: number, context: Record<string, unknown>): Env {
    const db = schema.slice(4);
    return { q, schema, registry: this.registry, uid, context, onUsersChanged: () => this.credentials.invalidate(db) };
  }

  /** `interactive` (a web login) accepts the password only, never an API key, as Odoo 15. */
  async authenticate(
    db: unknown,
    login: unknown,
    password: unknown,
    opts: { interactive?: boolean } = {},
  ): Promise<number | false> {
    const schema = await this.schema(db);
    return this.credentials.authenticate(this.db, schema, db as string, login, password, opts);
  }

  /**
   * Odoo's session token: a fingerprint of the user's stored credential, so a web session dies when
   * the password changes; undefined when the user is missing or inactive.
   */
  async sessionToken(db: unknown, uid: number): Promise<string | undefined> {
    const schema = await this.schema(db);
    const r = await this.db.query<{ password: string | null }>(
      `SELECT password FROM ${qi(schema)}.res_users WHERE id = $1 AND active = true`,
      [uid],
    );
    return r.rows[0] ? sha256(`${String(db)}\0${uid}\0${r.rows[0].password ?? ''}`) : undefined;
  }

  async checkCredentials(db: unknown, uid: unknown, password: unknown): Promise<void> {
    const schema = await this.schema(db);
    await this.credentials.check(this.db, schema, db as string, uid, password);
  }

  /** `object.execute_kw`: re-checks the credential, then runs the model method (writes in a transaction). */
  async executeKw(
    db: unknown,
    uid: unknown,
    password: unknown,
    model: unknown,
    method: unknown,
    args: unknown = [],
    kwargs: unknown = {},
    requestContext: Record<string, unknown> = {},
  ): Promise<unknown> {
    // Odoo does int(uid): "2" is accepted like 2.
    if (typeof uid === 'string' && /^\d+$/.test(uid)) uid = Number(uid);
    await this.checkCredentials(db, uid, password);
    return this.callKw(db, uid as number, model, method, args, kwargs, requestContext);
  }

  /**
   * The model call of `execute_kw` for a caller already authenticated (a web session checked by its
   * store): one implementation behind /jsonrpc, XML-RPC and /web/dataset/call_kw.
   */
  async callKw(
    db: unknown,
    uid: number,
    model: unknown,
    method: unknown,
    args: unknown = [],
    kwargs: unknown = {},
    requestContext: Record<string, unknown> = {},
  ): Promise<unknown> {
    const schema = await this.schema(db);
    if (typeof model !== 'string' || typeof method !== 'string') throw valueError('model and method must be strings');
    if (!Array.isArray(args)) throw valueError('args must be a list');
    const kw = isDict(kwargs) ? { ...kwargs } : {};
    const context = { ...requestContext, ...(isDict(kw.context) ? kw.context : {}) };
    delete kw.context;
    const { m, readonly, run } = resolveMethod({ registry: this.registry }, model, method);
    try {
      if (readonly) return await run(this.env(this.db, schema, uid, context), m, args, kw);
      return await this.db.transaction((q) => Promise.resolve(run(this.env(q, schema, uid, context), m, args, kw)));
    } catch (e) {
      throw fromPgError(e) ?? e;
    }
  }

  private async uidOf(q: Queryable, schema: string, login: string): Promise<number> {
    const r = await q.query<{ id: number }>(`SELECT id FROM ${qi(schema)}.res_users WHERE login = $1`, [login]);
    if (!r.rows[0]) throw valueError(`No user with login '${login}'`);
    return r.rows[0].id;
  }

  async createApiKey(db: string, login: string, description: string): Promise<{ id: number; key: string }> {
    if (!description.trim()) throw valueError('An API key needs a description');
    const schema = await this.schema(db);
    return createApiKey(this.db, schema, await this.uidOf(this.db, schema, login), description);
  }

  async listApiKeys(db: string): Promise<ApiKeyInfo[]> {
    return listApiKeys(this.db, await this.schema(db));
  }

  async revokeApiKey(db: string, id: number): Promise<boolean> {
    const ok = await revokeApiKey(this.db, await this.schema(db), id);
    this.credentials.invalidate(db);
    return ok;
  }

  async setPassword(db: string, login: string, password: string): Promise<void> {
    const schema = await this.schema(db);
    await this.db.transaction(async (q) => {
      const uid = await this.uidOf(q, schema, login);
      await write(this.env(q, schema, 1, {}), this.registry.get('res.users'), [uid], { password });
    });
  }
}
