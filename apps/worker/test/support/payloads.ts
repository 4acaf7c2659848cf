/** Test support: outbox payloads as the landing host builds them, and a migrated platform database. */
import { randomUUID } from 'node:crypto';

import { leadTags, parseFormSource } from '@platform/attribution';
import type { EstimatePayload, HelpdeskPayload } from '@platform/contracts';
import { createTestDb, type Db, migratePlatform, type TestDb } from '@platform/db';

export type EstimateOverrides = Partial<Omit<EstimatePayload, 'formSource' | 'contact'>> & {
  /** The raw `form_source` value (parsed as intake does). */
  formSource?: string;
  contact?: Partial<EstimatePayload['contact']>;
};

const uniqueEmail = () => `jane.${randomUUID().slice(0, 8)}@example.com`;

/** An estimate submission; tags follow intake's rules for the site "Acme" unless given. */
export function estimatePayload(o: EstimateOverrides = {}): EstimatePayload {
  const formSource = parseFormSource(o.formSource ?? 'product-roller-shades_inline');
  const attribution = o.attribution ?? {};
  return {
    submissionId: o.submissionId ?? randomUUID(),
    erpDb: o.erpDb ?? null,
    contact: { name: 'Jane Doe', email: uniqueEmail(), phone: '+1 555 010 2030', zip: '90210', ...o.contact },
    products: o.products ?? ['roller-shades'],
    message: o.message === undefined ? 'Two windows in the living room.' : o.message,
    formSource,
    attribution,
    tags: o.tags ?? leadTags({ formSource, lpSlug: attribution.lp_slug ?? null, siteName: 'Acme' }),
    gpc: o.gpc ?? false,
    submittedAt: o.submittedAt ?? new Date().toISOString(),
  };
}

export function helpdeskPayload(
  o: Partial<Omit<HelpdeskPayload, 'contact'>> & { contact?: Partial<HelpdeskPayload['contact']> } = {},
): HelpdeskPayload {
  return {
    submissionId: o.submissionId ?? randomUUID(),
    erpDb: o.erpDb ?? null,
    contact: { name: 'John Roe', email: uniqueEmail(), phone: null, ...o.contact },
    subject: o.subject ?? 'My blind is stuck',
    message: o.message ?? 'The cord broke yesterday.',
    submittedAt: o.submittedAt ?? new Date().toISOString(),
  };
}

/** A migrated platform database with one default tenant. */
export async function createPlatformDb(): Promise<{ t: TestDb; db: Db; tenantId: string }> {
  const t = await createTestDb(process.env, { migrated: true });
  try {
    await migratePlatform(t.db);
    const r = await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, is_default) VALUES ('acme', 'Acme', true) RETURNING id`,
    );
    return { t, db: t.db, tenantId: r.rows[0]!.id };
  } catch (e) {
    await t.drop();
    throw e;
  }
}

/** The platform's record of an estimate submission (what intake writes with the outbox row). */
export async function insertSubmission(db: Db, tenantId: string, p: EstimatePayload): Promise<void> {
  await db.query(
    `INSERT INTO submissions (id, tenant_id, kind, form_source, attribution, payload, fingerprint)
     VALUES ($1, $2, 'estimate', $3, $4, $5, $6)`,
    [
      p.submissionId,
      tenantId,
      p.formSource.raw,
      JSON.stringify(p.attribution),
      JSON.stringify(p),
      `fp-${p.submissionId}`,
    ],
  );
}
