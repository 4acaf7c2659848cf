/** The default tenant of a single-tenant install (created by whichever host starts first). */
import type { Queryable } from '@platform/db';

export async function ensureDefaultTenant(db: Queryable, slug: string, name = 'Default'): Promise<string> {
  await db.query('INSERT INTO tenants (slug, name, is_default) VALUES ($1, $2, true) ON CONFLICT DO NOTHING', [slug, name]);
  const r = await db.query<{ id: string }>('SELECT id FROM tenants WHERE is_default');
  if (!r.rows[0]) throw new Error('default tenant missing after creation');
  return r.rows[0].id;
}
