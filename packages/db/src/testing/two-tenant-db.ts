/** Test helper: the start of every cross-tenant test, a migrated platform database holding two tenants. */
import { migratePlatform } from '../migrate.js';
import { createTestDb, type TestDb } from '../test-db.js';

/** A fresh migrated database with tenants `<prefix>-a` (named A) and `<prefix>-b` (named B), and their ids. */
export async function createTwoTenantDb(prefix: string): Promise<{ t: TestDb; a: string; b: string }> {
  const t = await createTestDb(process.env, { migrated: true });
  try {
    await migratePlatform(t.db);
    const ids = await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name) VALUES ($1, 'A'), ($2, 'B') RETURNING id`,
      [`${prefix}-a`, `${prefix}-b`],
    );
    const [a, b] = ids.rows.map((r) => r.id) as [string, string];
    return { t, a, b };
  } catch (e) {
    await t.drop();
    throw e;
  }
}
