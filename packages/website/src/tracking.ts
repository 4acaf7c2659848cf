/**
 * A tenant's own Meta pixel and Conversions API token (docs/website.md): the pixel id is public (it
 * goes into the snapshot and the pages), the token is a credential, sealed by @platform/secrets
 * before it reaches the database, bound by its AAD to the tenant, table and column, never shown back
 * and read only server-side by `readMetaCapiToken` (the landing's conversion events).
 */
import type { WebsiteTrackingView } from '@platform/contracts/website.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { SecretBox } from '@platform/secrets';

import * as repo from './website.repo.js';

export type { WebsiteTrackingView };

export interface WebsiteTrackingInput {
  meta_pixel_id: string | null;
  /** undefined keeps the stored token, null removes it, a string replaces it. */
  meta_capi_token?: string | null | undefined;
}

const aad = (tenantId: string) => `${tenantId}|website_tracking|meta_capi_token|meta`;

export async function websiteTracking(tx: Queryable, tenantId: string): Promise<WebsiteTrackingView> {
  const row = await repo.findTracking(tx, tenantId);
  return { meta_pixel_id: row?.meta_pixel_id ?? null, meta_capi_token_set: !!row?.meta_capi_token_enc };
}

export async function setWebsiteTracking(
  tx: Queryable,
  box: SecretBox,
  tenantId: string,
  input: WebsiteTrackingInput,
): Promise<WebsiteTrackingView> {
  const old = await repo.findTracking(tx, tenantId);
  const token =
    input.meta_capi_token === undefined
      ? (old?.meta_capi_token_enc ?? null)
      : input.meta_capi_token === null
        ? null
        : box.seal(input.meta_capi_token, aad(tenantId));
  await repo.saveTracking(tx, tenantId, { meta_pixel_id: input.meta_pixel_id, meta_capi_token_enc: token });
  return websiteTracking(tx, tenantId);
}

/** The tenant's Conversions API token in the clear, for the landing's server-side events; null when unset. */
export async function readMetaCapiToken(db: Db, box: SecretBox, tenantId: string): Promise<string | null> {
  const row = await withTenant(db, tenantId, (tx) => repo.findTracking(tx, tenantId));
  return row?.meta_capi_token_enc ? box.open(row.meta_capi_token_enc, aad(tenantId)) : null;
}

/** Whether the tenant set both its own pixel id and Conversions API token (no secret is opened). */
export async function hasOwnMetaCapi(db: Db, tenantId: string): Promise<boolean> {
  const row = await withTenant(db, tenantId, (tx) => repo.findTracking(tx, tenantId));
  return Boolean(row?.meta_pixel_id && row.meta_capi_token_enc);
}

/**
 * The tenant's own Conversions API pixel and token, for the worker's sender; null unless both are
 * set. Never another tenant's: the row is read under this tenant and the token's AAD names it.
 */
export async function readMetaCapiCredentials(
  db: Db,
  box: SecretBox,
  tenantId: string,
): Promise<{ pixelId: string; accessToken: string } | null> {
  const row = await withTenant(db, tenantId, (tx) => repo.findTracking(tx, tenantId));
  if (!row?.meta_pixel_id || !row.meta_capi_token_enc) return null;
  return { pixelId: row.meta_pixel_id, accessToken: box.open(row.meta_capi_token_enc, aad(tenantId)) };
}
