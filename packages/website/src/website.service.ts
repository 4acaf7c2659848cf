/**
 * A tenant's website versions (docs/website.md, "Editing and publishing"): one draft the owner edits,
 * and published versions numbered 1, 2, 3… of which the newest is live. A rollback publishes an
 * earlier version's content again as a new version (and makes it the draft), so the history only
 * grows and "what was live when" stays answerable. Every function runs inside the caller's tenant
 * transaction (`withTenant`), so the control plane records its audit entry in the same commit.
 */
import type { WebsiteCatalog, WebsiteContent, WebsiteEditorView } from '@platform/contracts/website.js';
import type { Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';
import { findTenantById, getTenantSettings } from '@platform/tenancy';

import { defaultWebsiteContent } from './default-content.js';
import * as repo from './website.repo.js';

export const EMPTY_CATALOG: WebsiteCatalog = { products: [], areas: [] };

/** The name the site goes by: the Company screen's name, else the tenant's. */
export async function websiteCompanyName(tx: Queryable, tenantId: string): Promise<string> {
  const settings = await getTenantSettings(tx, tenantId);
  return settings?.company_name?.trim() || (await findTenantById(tx, tenantId))?.name || 'Our company';
}

export async function websiteEditorView(tx: Queryable, tenantId: string): Promise<WebsiteEditorView> {
  const companyName = await websiteCompanyName(tx, tenantId);
  const [draft, versions, latest, catalog] = await Promise.all([
    repo.findDraft(tx, tenantId),
    repo.listVersions(tx, tenantId),
    repo.latestVersion(tx, tenantId),
    repo.findCatalog(tx, tenantId),
  ]);
  return {
    // Before the first save the editor starts from what the site shows: the published version, else the defaults.
    draft: draft ?? latest?.content ?? defaultWebsiteContent(companyName),
    published: latest
      ? { version: latest.version, published_at: latest.published_at.toISOString(), content: latest.content }
      : null,
    history: versions.slice(1).map((v) => ({ version: v.version, published_at: v.published_at.toISOString() })),
    catalog: catalog ?? EMPTY_CATALOG,
  };
}

export function saveWebsiteDraft(tx: Queryable, tenantId: string, content: WebsiteContent): Promise<void> {
  return repo.saveDraft(tx, tenantId, content);
}

/** Publishes the draft (the defaults when nothing was saved yet) as the next version. */
export async function publishWebsite(tx: Queryable, tenantId: string, by: string | null): Promise<repo.PublishedRow> {
  const draft = await lockedDraft(tx, tenantId);
  const latest = await repo.latestVersion(tx, tenantId);
  return repo.insertVersion(tx, tenantId, (latest?.version ?? 0) + 1, draft, by);
}

/** Makes version `version`'s content live again as a new version, and the draft. */
export async function rollbackWebsite(
  tx: Queryable,
  tenantId: string,
  version: number,
  by: string | null,
): Promise<repo.PublishedRow> {
  await lockedDraft(tx, tenantId);
  const target = await repo.findVersion(tx, tenantId, version);
  if (!target)
    throw new AppError('NOT_FOUND', `Version ${version} was never published.`, {
      fieldIssues: [{ field: 'version', rule: 'unknown', message: `no published version ${version}` }],
    });
  const latest = await repo.latestVersion(tx, tenantId);
  await repo.saveDraft(tx, tenantId, target.content);
  return repo.insertVersion(tx, tenantId, (latest?.version ?? 0) + 1, target.content, by);
}

/** The draft, its row locked: two publishes of one tenant take turns instead of racing for a number. */
async function lockedDraft(tx: Queryable, tenantId: string): Promise<WebsiteContent> {
  const found = await repo.findDraft(tx, tenantId, true);
  if (found) return found;
  const initial =
    (await repo.latestVersion(tx, tenantId))?.content ?? defaultWebsiteContent(await websiteCompanyName(tx, tenantId));
  await repo.saveDraft(tx, tenantId, initial);
  return (await repo.findDraft(tx, tenantId, true)) ?? initial;
}

export function saveWebsiteCatalog(tx: Queryable, tenantId: string, catalog: WebsiteCatalog): Promise<void> {
  return repo.saveCatalog(tx, tenantId, catalog);
}
