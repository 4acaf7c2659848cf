/**
 * Row-level security keeps tenants apart whatever the SQL says: inside withTenant a query sees only
 * its tenant's rows and cannot write a row for another tenant (PGlite and PostgreSQL alike).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Queryable } from './db.js';
import { withTenant } from './tenant-scope.js';
import type { TestDb } from './test-db.js';
import { createTwoTenantDb } from './testing/two-tenant-db.js';

let t: TestDb;
let a: string;
let b: string;
beforeAll(async () => {
  ({ t, a, b } = await createTwoTenantDb('rls'));
  await t.db.query(
    `INSERT INTO tenant_domains (tenant_id, domain_type, domain) VALUES ($1, 'subdomain', 'a.rls.test'), ($2, 'subdomain', 'b.rls.test')`,
    [a, b],
  );
});
afterAll(async () => t?.drop());

describe('tenant isolation by row-level security', () => {
  it("shows a tenant only its own rows, even for a query that asks for every tenant's", async () => {
    const seen = await withTenant(t.db, a, (tx) => tx.query<{ domain: string }>('SELECT domain FROM tenant_domains'));
    expect(seen.rows.map((r) => r.domain)).toEqual(['a.rls.test']);
    const tenants = await withTenant(t.db, b, (tx) => tx.query<{ slug: string }>('SELECT slug FROM tenants'));
    expect(tenants.rows.map((r) => r.slug)).toEqual(['rls-b']);
  });

  it("refuses to write a row carrying another tenant's id, and leaves nothing behind", async () => {
    await expect(
      withTenant(t.db, a, (tx) =>
        tx.query(`INSERT INTO tenant_domains (tenant_id, domain_type, domain) VALUES ($1, 'custom', 'evil.rls.test')`, [
          b,
        ]),
      ),
    ).rejects.toThrow(/row-level security/);
    expect((await t.db.query(`SELECT 1 FROM tenant_domains WHERE domain = 'evil.rls.test'`)).rowCount).toBe(0);
  });

  it("cannot change or delete another tenant's rows", async () => {
    const upd = await withTenant(t.db, a, (tx) =>
      tx.query(`UPDATE tenant_domains SET is_primary = true WHERE domain = 'b.rls.test'`),
    );
    const del = await withTenant(t.db, a, (tx) => tx.query(`DELETE FROM tenant_domains WHERE domain = 'b.rls.test'`));
    expect([upd.rowCount, del.rowCount]).toEqual([0, 0]);
  });

  it('runs the transaction as platform_app with the tenant set, both from its first statement', async () => {
    const r = await withTenant(t.db, a, (tx) =>
      tx.query<{ who: string; tid: string }>(`SELECT current_user AS who, current_setting('app.tenant_id') AS tid`),
    );
    expect(r.rows[0]).toEqual({ who: 'platform_app', tid: a });
  });

  it('refuses to run in a transaction opened without the scope (a Db wrapper that drops it)', async () => {
    const dropping = { ...t.db, transaction: <T>(fn: (tx: Queryable) => Promise<T>) => t.db.transaction(fn) };
    let ran = false;
    await expect(withTenant(dropping, a, async () => void (ran = true))).rejects.toThrow(/without the tenant scope/);
    expect(ran).toBe(false);
  });

  it('drops the tenant scope at the end of the transaction (a pooled connection does not carry it on)', async () => {
    await withTenant(t.db, a, async () => undefined);
    const r = await t.db.query<{ who: string; tid: string | null }>(
      `SELECT current_user AS who, nullif(current_setting('app.tenant_id', true), '') AS tid`,
    );
    expect(r.rows[0]?.who).not.toBe('platform_app');
    expect(r.rows[0]?.tid).toBeNull();
  });
});
