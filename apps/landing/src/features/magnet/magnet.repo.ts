import type { Queryable } from '@platform/db';

export interface NewSubscriber {
  tenantId: string;
  email: string;
  magnetType: string;
  formSource: string | null;
  formSourceParsed: unknown;
  address: string | null;
}

/** One row per (tenant, email, magnet); a repeat sign-up refreshes its source and address. */
export async function upsertSubscriber(db: Queryable, s: NewSubscriber): Promise<string> {
  const r = await db.query<{ id: string }>(
    `INSERT INTO magnet_subscribers (tenant_id, email, magnet_type, form_source, form_source_parsed, address)
     VALUES ($1, lower($2), $3, $4, $5, $6)
     ON CONFLICT (tenant_id, email, magnet_type) DO UPDATE SET form_source = EXCLUDED.form_source,
       form_source_parsed = EXCLUDED.form_source_parsed, address = coalesce(EXCLUDED.address, magnet_subscribers.address)
     RETURNING id`,
    [s.tenantId, s.email, s.magnetType, s.formSource, JSON.stringify(s.formSourceParsed), s.address],
  );
  return r.rows[0]!.id;
}
