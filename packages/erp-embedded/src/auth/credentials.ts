/**
 * Credential checks for `common.authenticate` and every `object.execute_kw`. Successful checks are
 * cached briefly in memory, like Odoo's `res.users` check cache, so repeated calls skip the slow
 * password hash; a password change, a deactivation or a key revocation in this process clears it,
 * and any other change is seen once the entry expires (`ttlMs`).
 */
import type { Queryable } from '@platform/db';

import { accessDenied } from '../errors.js';
import { qt } from '../schema.js';
import { API_KEY_RE, checkApiKey, sha256 } from './apikeys.js';
import { verifyPassword } from './password.js';

export class CredentialChecker {
  private readonly cache = new Map<string, number>();

  constructor(
    private readonly ttlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** uid for a login and a password or API key, or false (Odoo's authenticate swallows AccessDenied). */
  async authenticate(
    q: Queryable,
    schema: string,
    db: string,
    login: unknown,
    secret: unknown,
    opts: { interactive?: boolean } = {},
  ): Promise<number | false> {
    if (typeof login !== 'string' || typeof secret !== 'string' || !secret) return false;
    const r = await q.query<{ id: number; password: string | null }>(
      `SELECT id, password FROM ${qt(schema, 'res_users')} WHERE login = $1 AND active = true`,
      [login],
    );
    const user = r.rows[0];
    const ok = opts.interactive
      ? await verifyPassword(secret, user?.password)
      : user && (await this.verify(q, schema, user.id, user.password, secret));
    if (!user || !ok) return false;
    if (opts.interactive) return user.id;
    this.cache.set(this.key(db, user.id, secret), this.now() + this.ttlMs);
    return user.id;
  }

  /** Throws AccessDenied unless `secret` is the password or a live API key of active user `uid`. */
  async check(q: Queryable, schema: string, db: string, uid: unknown, secret: unknown): Promise<void> {
    if (typeof uid !== 'number' || !Number.isInteger(uid) || typeof secret !== 'string' || !secret)
      throw accessDenied();
    const k = this.key(db, uid, secret);
    const until = this.cache.get(k);
    if (until !== undefined && until > this.now()) return;
    this.cache.delete(k);
    const r = await q.query<{ password: string | null }>(
      `SELECT password FROM ${qt(schema, 'res_users')} WHERE id = $1 AND active = true`,
      [uid],
    );
    const user = r.rows[0];
    if (!user || !(await this.verify(q, schema, uid, user.password, secret))) throw accessDenied();
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(k, this.now() + this.ttlMs);
  }

  invalidate(db?: string): void {
    if (db === undefined) return this.cache.clear();
    for (const k of this.cache.keys()) if (k.startsWith(`${db}\0`)) this.cache.delete(k);
  }

  private async verify(q: Queryable, schema: string, uid: number, hash: string | null, secret: string) {
    if (API_KEY_RE.test(secret) && (await checkApiKey(q, schema, uid, secret))) return true;
    return verifyPassword(secret, hash);
  }

  private key(db: string, uid: number, secret: string) {
    return `${db}\0${uid}\0${sha256(secret)}`;
  }
}
