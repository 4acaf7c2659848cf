/** SQL of a tenant's website (migration 0340): drafts, published versions, catalogue, tracking. */
import type { WebsiteCatalog, WebsiteContent } from '@platform/contracts/website.js';
import type { Queryable } from '@platform/db';

export interface PublishedRow {
  version: number;
  published_at: Date;
  content: WebsiteContent;
}

export interface TrackingRow {
  meta_pixel_id: string | null;
  meta_capi_token_enc: string | null;
}

export const WEBSITE_CHANNEL = 'platform_website';

export async function findDraft(
  q: Queryable,
  tenantId: string,
  forUpdate = false,
): Promise<WebsiteContent | undefined> {
  const r = await q.query<{ content: WebsiteContent }>(
    `SELECT content FROM website_drafts WHERE tenant_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [tenantId],
  );
  return r.rows[0]?.content;
}

export async function saveDraft(q: Queryable, tenantId: string, content: WebsiteContent): Promise<void> {
  await q.query(
    `INSERT INTO website_drafts (tenant_id, content) VALUES ($1, $2::jsonb)
     ON CONFLICT (tenant_id) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
    [tenantId, JSON.stringify(content)],
  );
}

/** The live version: the newest published one. */
export async function latestVersion(q: Queryable, tenantId: string): Promise<PublishedRow | undefined> {
  const r = await q.query<PublishedRow>(
    `SELECT version, published_at, content FROM website_versions WHERE tenant_id = $1 ORDER BY version DESC LIMIT 1`,
    [tenantId],
  );
  return r.rows[0];
}

export async function findVersion(q: Queryable, tenantId: string, version: number): Promise<PublishedRow | undefined> {
  const r = await q.query<PublishedRow>(
    `SELECT version, published_at, content FROM website_versions WHERE tenant_id = $1 AND version = $2`,
    [tenantId, version],
  );
  return r.rows[0];
}

/** Every published version, newest first, without their content. */
export async function listVersions(q: Queryable, tenantId: string): Promise<{ version: number; published_at: Date }[]> {
  const r = await q.query<{ version: number; published_at: Date }>(
    `SELECT version, published_at FROM website_versions WHERE tenant_id = $1 ORDER BY version DESC`,
    [tenantId],
  );
  return r.rows;
}

export async function insertVersion(
  q: Queryable,
  tenantId: string,
  version: number,
  content: WebsiteContent,
  by: string | null,
): Promise<PublishedRow> {
  const r = await q.query<PublishedRow>(
    `INSERT INTO website_versions (tenant_id, version, content, published_by) VALUES ($1, $2, $3::jsonb, $4)
     RETURNING version, published_at, content`,
    [tenantId, version, JSON.stringify(content), by],
  );
  return r.rows[0]!;
}

export async function findCatalog(q: Queryable, tenantId: string): Promise<WebsiteCatalog | undefined> {
  const r = await q.query<{ catalog: WebsiteCatalog }>(`SELECT catalog FROM website_catalogs WHERE tenant_id = $1`, [
    tenantId,
  ]);
  return r.rows[0]?.catalog;
}

/** Writes the catalogue only when it differs, so an unchanged rebuild tells no landing to forget. */
export async function saveCatalog(q: Queryable, tenantId: string, catalog: WebsiteCatalog): Promise<void> {
  await q.query(
    `INSERT INTO website_catalogs (tenant_id, catalog) VALUES ($1, $2::jsonb)
     ON CONFLICT (tenant_id) DO UPDATE SET catalog = EXCLUDED.catalog, updated_at = now()
       WHERE website_catalogs.catalog IS DISTINCT FROM EXCLUDED.catalog`,
    [tenantId, JSON.stringify(catalog)],
  );
}

export async function findTracking(q: Queryable, tenantId: string): Promise<TrackingRow | undefined> {
  const r = await q.query<TrackingRow>(
    `SELECT meta_pixel_id, meta_capi_token_enc FROM website_tracking WHERE tenant_id = $1`,
    [tenantId],
  );
  return r.rows[0];
}

export async function saveTracking(q: Queryable, tenantId: string, t: TrackingRow): Promise<void> {
  await q.query(
    `INSERT INTO website_tracking (tenant_id, meta_pixel_id, meta_capi_token_enc) VALUES ($1, $2, $3)
     ON CONFLICT (tenant_id) DO UPDATE SET meta_pixel_id = EXCLUDED.meta_pixel_id,
       meta_capi_token_enc = EXCLUDED.meta_capi_token_enc, updated_at = now()`,
    [tenantId, t.meta_pixel_id, t.meta_capi_token_enc],
  );
}
