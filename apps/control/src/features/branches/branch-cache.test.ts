/**
 * The branch scope's cache on PGlite and PostgreSQL (TEST_DATABASE_URL): it keeps a tenant's branches
 * only while listening, and a change to branches or members made anywhere (here plain SQL over
 * another connection, past the branches service) reaches it through the trigger's NOTIFY.
 */
import { createPgDb, createTestDb, type Db, migratePlatform, type TestDb, withTenant } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BranchCache } from './branch-cache.js';
import { type BranchRow, listBranches } from './branches.repo.js';

let t: TestDb;
let other: Db | undefined;
let tenantId: string;
let userId: string;
let branchId: string;
const caches: BranchCache[] = [];

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`never happened: ${what}`);
}

/** A cache over the real read, counting the reads that reached the database. */
function counted(): { cache: BranchCache; reads: () => number } {
  let n = 0;
  const cache = new BranchCache(t.db, (id) => {
    n++;
    return withTenant(t.db, id, (tx) => listBranches(tx, id));
  });
  caches.push(cache);
  return { cache, reads: () => n };
}

const members = (rows: readonly BranchRow[]) => rows.flatMap((b) => b.member_ids);

beforeAll(async () => {
  t = await createTestDb();
  await migratePlatform(t.db);
  tenantId = (await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('bc', 'BC') RETURNING id`))
    .rows[0]!.id;
  userId = (await t.db.query<{ id: string }>(`INSERT INTO users (email) VALUES ('tech@bc.test') RETURNING id`)).rows[0]!
    .id;
  branchId = (
    await t.db.query<{ id: string }>(
      `INSERT INTO branches (id, tenant_id, name, zip_codes, is_default)
       VALUES (gen_random_uuid(), $1, 'Denver', '{80211}', true) RETURNING id`,
      [tenantId],
    )
  ).rows[0]!.id;
  other = t.url ? createPgDb({ url: t.url, max: 1 }) : undefined;
});
afterAll(async () => {
  for (const c of caches) await c.stop();
  await other?.close();
  await t?.drop();
});

describe('branch cache', () => {
  it('reads the database on every call while not listening', async () => {
    const { cache, reads } = counted();
    await cache.get(tenantId);
    await cache.get(tenantId);
    expect(reads()).toBe(2);
  });

  it('keeps the branches while listening and forgets them on a member added elsewhere', async () => {
    const { cache, reads } = counted();
    await cache.start();
    expect(members(await cache.get(tenantId))).toEqual([]);
    expect(members(await cache.get(tenantId))).toEqual([]);
    expect(reads()).toBe(1);
    await (other ?? t.db).query(`INSERT INTO branch_members (tenant_id, branch_id, user_id) VALUES ($1, $2, $3)`, [
      tenantId,
      branchId,
      userId,
    ]);
    await eventually(async () => members(await cache.get(tenantId)).includes(userId), 'the new member seen');
    // A member gone by cascade (the user deleted), not by the branches service, is heard too.
    await (other ?? t.db).query(`DELETE FROM users WHERE id = $1`, [userId]);
    await eventually(async () => members(await cache.get(tenantId)).length === 0, 'the member gone');
  });

  it('does not keep a read that began before a change was heard', async () => {
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    let n = 0;
    const cache = new BranchCache(t.db, async () => {
      n++;
      await gate;
      return [];
    });
    caches.push(cache);
    await cache.start();
    const first = cache.get(tenantId);
    cache.invalidate(tenantId);
    release();
    await first;
    await cache.get(tenantId);
    expect(n).toBe(2);
    await cache.get(tenantId);
    expect(n).toBe(2);
  });

  it('hands out rows a caller cannot change', async () => {
    const { cache } = counted();
    await cache.start();
    const rows = await cache.get(tenantId);
    expect(() => (rows[0]!.zip_codes as string[]).push('99999')).toThrow();
    expect((await cache.get(tenantId))[0]!.zip_codes).toEqual(['80211']);
  });

  it('stops keeping anything once stopped', async () => {
    const { cache, reads } = counted();
    await cache.start();
    await cache.get(tenantId);
    await cache.stop();
    await cache.get(tenantId);
    expect(reads()).toBe(2);
  });
});
