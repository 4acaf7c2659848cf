/**
 * Draft preview (docs/website.md, "Preview"): the control plane mints a short-lived token for one
 * tenant, sealed with the platform's keyring (@platform/secrets, the key every process already
 * shares), and the landing host renders that tenant's DRAFT for a request bearing it. AES-GCM with
 * the tenant in the AAD makes the token unforgeable and useless on another tenant's host; the expiry
 * inside bounds a leaked link.
 */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';
import type { Db } from '@platform/db';
import type { SecretBox } from '@platform/secrets';

import { readSnapshot } from './website-snapshots.js';

export const WEBSITE_PREVIEW_TTL_MS = 15 * 60_000;

const aad = (tenantId: string) => `${tenantId}|website_preview`;

export function mintPreviewToken(box: SecretBox, tenantId: string, now = Date.now()): string {
  return box.seal(JSON.stringify({ exp: now + WEBSITE_PREVIEW_TTL_MS }), aad(tenantId));
}

/** True only for an unexpired token minted for this tenant by a process sharing the keyring. */
export function previewTokenValid(box: SecretBox, tenantId: string, token: string, now = Date.now()): boolean {
  try {
    const { exp } = JSON.parse(box.open(token, aad(tenantId))) as { exp?: unknown };
    return typeof exp === 'number' && now < exp;
  } catch {
    // Forged, damaged, another tenant's or another keyring's: all the same to the visitor.
    return false;
  }
}

/** The tenant's draft as a snapshot, for a valid token; null otherwise. Never cached: every preview reads the draft. */
export async function openWebsitePreview(
  db: Db,
  box: SecretBox,
  tenantId: string,
  token: string,
  tenantsHost: string,
): Promise<WebsiteSnapshot | null> {
  if (!previewTokenValid(box, tenantId, token)) return null;
  return readSnapshot(db, tenantId, tenantsHost, { draft: true });
}
