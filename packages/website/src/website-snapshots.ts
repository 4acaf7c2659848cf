/**
 * The landing host's `WebsiteSnapshotSource` (docs/website.md, "Snapshots and caching"): a tenant's
 * snapshot is read from the database once and kept in the process. Every change to the tenant's
 * website, catalogue or tracking NOTIFYs `platform_website` with its id (migration 0340) and that
 * entry is dropped; a change to tenants, domains or settings NOTIFYs `platform_tenancy` (migration
 * 0120, payload: the table) and every entry is dropped. A LISTEN connection that comes back says `''`:
 * notices may have been lost meanwhile, so everything is dropped too. Entries also expire after 60 s,
 * the safety net for anything else.
 */
import type { WebsiteCompany, WebsiteSnapshot } from '@platform/contracts/website.js';
import type { Db } from '@platform/db';
import { withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';
import {
  findTenantById,
  getTenantSettings,
  primaryHost,
  TENANCY_CHANNEL,
  type TenantSettings,
} from '@platform/tenancy';

import { shownCatalog } from './catalog.js';
import { defaultWebsiteContent } from './default-content.js';
import type { WebsiteSnapshotSource } from './snapshot-source.js';
import * as repo from './website.repo.js';
import { EMPTY_CATALOG } from './website.service.js';

export interface WebsiteSnapshotSourceOptions {
  /** Tenant subdomains are `<slug>.<tenantsHost>`: the primary host when no domain row names one. */
  tenantsHost: string;
  ttlMs?: number;
  now?: () => number;
}

export interface ListeningSnapshotSource extends WebsiteSnapshotSource {
  /** Starts listening on both channels; without it entries only expire. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createWebsiteSnapshotSource(db: Db, opts: WebsiteSnapshotSourceOptions): ListeningSnapshotSource {
  const ttl = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { at: number; snapshot: Promise<WebsiteSnapshot> }>();
  const listeners: ((tenantId: string | null) => void)[] = [];
  let stops: (() => Promise<void>)[] = [];

  const drop = (tenantId: string | null) => {
    if (tenantId) cache.delete(tenantId);
    else cache.clear();
    for (const l of listeners) l(tenantId);
  };

  return {
    get(tenantId) {
      const hit = cache.get(tenantId);
      if (hit && now() - hit.at < ttl) return hit.snapshot;
      const entry = { at: now(), snapshot: readSnapshot(db, tenantId, opts.tenantsHost) };
      cache.set(tenantId, entry);
      // A failed read is not kept: the next request tries again.
      entry.snapshot.catch(() => {
        if (cache.get(tenantId) === entry) cache.delete(tenantId);
      });
      return entry.snapshot;
    },
    onChange(listener) {
      listeners.push(listener);
    },
    async start() {
      if (stops.length) return;
      stops = [
        await db.listen(repo.WEBSITE_CHANNEL, (payload) => drop(UUID.test(payload) ? payload : null)),
        await db.listen(TENANCY_CHANNEL, () => drop(null)),
      ];
    },
    async stop() {
      const s = stops;
      stops = [];
      await Promise.all(s.map((f) => f()));
    },
  };
}

/** One tenant's snapshot, read in one tenant transaction; `draft` reads the editor's draft instead (preview). */
export async function readSnapshot(
  db: Db,
  tenantId: string,
  tenantsHost: string,
  opts: { draft?: boolean } = {},
): Promise<WebsiteSnapshot> {
  return withTenant(db, tenantId, async (tx) => {
    const tenant = await findTenantById(tx, tenantId);
    if (!tenant) throw new AppError('TENANT_NOT_FOUND', 'No such tenant.');
    const [settings, host, latest, catalog, tracking, draft] = await Promise.all([
      getTenantSettings(tx, tenantId),
      primaryHost(tx, tenantId),
      repo.latestVersion(tx, tenantId),
      repo.findCatalog(tx, tenantId),
      repo.findTracking(tx, tenantId),
      opts.draft ? repo.findDraft(tx, tenantId) : undefined,
    ]);
    const company = companyOf(tenant.name, settings);
    // Before the first save the draft is the live version (docs/website.md), else the defaults.
    const content = draft ?? latest?.content ?? defaultWebsiteContent(company.name);
    return {
      tenant_id: tenantId,
      version: latest?.version ?? 0,
      content,
      catalog: shownCatalog(catalog ?? EMPTY_CATALOG, content),
      company,
      primary_host: host.domain ?? `${host.slug}.${tenantsHost}`,
      meta_pixel_id: tracking?.meta_pixel_id ?? null,
    };
  });
}

function companyOf(tenantName: string, s: TenantSettings | undefined): WebsiteCompany {
  return {
    name: s?.company_name?.trim() || tenantName,
    phone: s?.phone ?? null,
    email: s?.email ?? null,
    address: s?.address ?? null,
    logo_url: s?.logo_url ?? null,
    favicon_url: s?.favicon_url ?? null,
    primary_color: s?.primary_color ?? null,
    secondary_color: s?.secondary_color ?? null,
    social_facebook: s?.social_facebook ?? null,
    social_instagram: s?.social_instagram ?? null,
    meta_title: s?.meta_title ?? null,
    meta_description: s?.meta_description ?? null,
    helpdesk_enabled: s?.helpdesk_enabled ?? false,
  };
}
