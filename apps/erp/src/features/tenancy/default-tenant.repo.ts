/** The default tenant of a single-tenant install (created by whichever host starts first; owned by @platform/tenancy). */
import type { Queryable } from '@platform/db';
import { ensureDefaultTenant as ensureDefault } from '@platform/tenancy';

export async function ensureDefaultTenant(db: Queryable, slug: string, name = 'Default'): Promise<string> {
  return (await ensureDefault(db, slug, name)).id;
}
