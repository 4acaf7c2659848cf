import { createTestDb, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EmbeddedErp } from '../embedded-erp.js';
import { CredentialChecker } from './credentials.js';

let t: TestDb;
let erp: EmbeddedErp;

beforeAll(async () => {
  t = await createTestDb();
  erp = new EmbeddedErp(t.db);
  await erp.createDatabase('auth', { adminPassword: 'secret-pw' });
});
afterAll(async () => t?.drop());

const count = (secret: string) => erp.executeKw('auth', 2, secret, 'res.partner', 'search_count', [[]]);

describe('passwords', () => {
  it('authenticate returns the uid, or false for a wrong password, unknown login or inactive user', async () => {
    expect(await erp.authenticate('auth', 'admin', 'secret-pw')).toBe(2);
    expect(await erp.authenticate('auth', 'admin', 'wrong')).toBe(false);
    expect(await erp.authenticate('auth', 'nobody', 'secret-pw')).toBe(false);
    expect(await erp.authenticate('auth', '__system__', '')).toBe(false);
  });

  it('stores passwords hashed, never in clear', async () => {
    const r = await t.db.query<{ password: string }>(`SELECT password FROM erp_auth.res_users WHERE login = 'admin'`);
    expect(r.rows[0]!.password).toMatch(/^scrypt\$/);
    expect(r.rows[0]!.password).not.toContain('secret-pw');
  });

  it('execute_kw re-checks the password on every call: AccessDenied for a wrong one', async () => {
    expect(await count('secret-pw')).toBeGreaterThan(0);
    await expect(count('nope')).rejects.toMatchObject({
      odooName: 'odoo.exceptions.AccessDenied',
      message: 'Access Denied',
    });
    await expect(erp.executeKw('auth', 99, 'secret-pw', 'res.partner', 'search_count', [[]])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.AccessDenied',
    });
  });

  it('a password change takes effect at once despite the check cache', async () => {
    expect(await count('secret-pw')).toBeGreaterThan(0);
    await erp.setPassword('auth', 'admin', 'new-pw');
    await expect(count('secret-pw')).rejects.toMatchObject({ odooName: 'odoo.exceptions.AccessDenied' });
    expect(await count('new-pw')).toBeGreaterThan(0);
    await erp.setPassword('auth', 'admin', 'secret-pw');
  });

  it('the cache trusts a successful check only until its TTL', async () => {
    let now = 1_000;
    const checker = new CredentialChecker(5_000, () => now);
    await checker.check(t.db, 'erp_auth', 'auth', 2, 'secret-pw');
    // Another process changes the password behind this one's back.
    const saved = (await t.db.query<{ password: string }>(`SELECT password FROM erp_auth.res_users WHERE id = 2`))
      .rows[0]!.password;
    await t.db.query(`UPDATE erp_auth.res_users SET password = 'scrypt$x' WHERE id = 2`);
    try {
      now += 4_000;
      await expect(checker.check(t.db, 'erp_auth', 'auth', 2, 'secret-pw')).resolves.toBeUndefined();
      now += 2_000;
      await expect(checker.check(t.db, 'erp_auth', 'auth', 2, 'secret-pw')).rejects.toMatchObject({
        odooName: 'odoo.exceptions.AccessDenied',
      });
    } finally {
      await t.db.query(`UPDATE erp_auth.res_users SET password = $1 WHERE id = 2`, [saved]);
    }
  });
});

describe('API keys', () => {
  it('are 40 lowercase hex chars, stored as SHA-256 with an 8-char index, and replace the password', async () => {
    const { id, key } = await erp.createApiKey('auth', 'admin', 'integration test');
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    const row = (
      await t.db.query<{ key: string; index: string }>(
        `SELECT key, index FROM erp_auth.res_users_apikeys WHERE id = $1`,
        [id],
      )
    ).rows[0]!;
    expect(row.index).toBe(key.slice(0, 8));
    expect(row.key).not.toContain(key);
    expect(await erp.authenticate('auth', 'admin', key)).toBe(2);
    expect(await count(key)).toBeGreaterThan(0);
    const listed = (await erp.listApiKeys('auth')).find((k) => k.id === id)!;
    expect(listed).toMatchObject({ name: 'integration test', login: 'admin' });
    expect(listed.lastUsed).toMatch(/^\d{4}-\d{2}-\d{2} /);
  });

  it('a key of one user does not log in as another, and a wrong key with a right index fails', async () => {
    const { key } = await erp.createApiKey('auth', 'admin', 'k2');
    expect(await erp.authenticate('auth', '__system__', key)).toBe(false);
    const forged = key.slice(0, 8) + '0'.repeat(32);
    expect(await erp.authenticate('auth', 'admin', forged)).toBe(false);
  });

  it('revocation stops the key at once: authenticate false, execute_kw AccessDenied', async () => {
    const { id, key } = await erp.createApiKey('auth', 'admin', 'to revoke');
    expect(await count(key)).toBeGreaterThan(0);
    expect(await erp.revokeApiKey('auth', id)).toBe(true);
    expect(await erp.authenticate('auth', 'admin', key)).toBe(false);
    await expect(count(key)).rejects.toMatchObject({ odooName: 'odoo.exceptions.AccessDenied' });
    expect((await erp.listApiKeys('auth')).some((k) => k.id === id)).toBe(false);
  });

  it('deactivating the user stops its keys', async () => {
    const uid = (await erp.executeKw('auth', 2, 'secret-pw', 'res.users', 'create', [
      { name: 'Bob', login: 'bob', password: 'bob-pw' },
    ])) as number;
    const { key } = await erp.createApiKey('auth', 'bob', 'bob key');
    expect(await erp.authenticate('auth', 'bob', key)).toBe(uid);
    await erp.executeKw('auth', 2, 'secret-pw', 'res.users', 'write', [[uid], { active: false }]);
    expect(await erp.authenticate('auth', 'bob', key)).toBe(false);
    await expect(erp.executeKw('auth', uid, key, 'res.partner', 'search_count', [[]])).rejects.toMatchObject({
      odooName: 'odoo.exceptions.AccessDenied',
    });
  });
});
