/**
 * The console's Website area (docs/website.md, "Editing and publishing"): the draft, publishing,
 * rollback, gallery uploads and the tenant's Meta pixel and Conversions API token, each change
 * audited in its own transaction. The catalogue (products from the price grids, areas from the
 * branches) is rebuilt through the owners' services, never their tables: on every grid or branch
 * change (website.compose.ts subscribes) and at each publish.
 */
import type { WebsiteContent, WebsiteEditorView, WebsitePreviewLink } from '@platform/contracts/website.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { SecretBox } from '@platform/secrets';
import type { ObjectStore } from '@platform/storage';
import {
  buildWebsiteCatalog,
  type CatalogBranch,
  type CatalogGrid,
  mintPreviewToken,
  publishWebsite,
  readWebsiteImage,
  rollbackWebsite,
  saveWebsiteCatalog,
  saveWebsiteDraft,
  setWebsiteTracking,
  type StoredWebsiteImage,
  storeWebsiteImage,
  WEBSITE_PREVIEW_TTL_MS,
  websiteEditorView,
  websiteImageKeyPattern,
  websiteTracking,
  type WebsiteTrackingInput,
  type WebsiteTrackingView,
} from '@platform/website';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';

/** Where the catalogue's facts come from: the owning features' services (wired by website.compose.ts). */
export interface WebsiteCatalogSources {
  grids(tenantId: string): Promise<CatalogGrid[]>;
  branches(tenantId: string): Promise<CatalogBranch[]>;
  currency(tenantId: string): Promise<string>;
  /** The origin of the tenant's primary host (the "View site" link). */
  siteUrl(tenantId: string): Promise<string>;
}

export interface WebsiteActor {
  principal: Principal;
  ip?: string | undefined;
}

export class ControlWebsite {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly objects: ObjectStore,
    private readonly audit: AuditLog,
    private readonly sources: WebsiteCatalogSources,
  ) {}

  /** The editor's view; its catalogue is the full one (the screen chooses from it), read fresh. */
  async view(tenantId: string): Promise<WebsiteEditorView> {
    const [catalog, site_url] = await Promise.all([this.catalog(tenantId), this.sources.siteUrl(tenantId)]);
    const view = await withTenant(this.db, tenantId, (tx) => websiteEditorView(tx, tenantId));
    return { ...view, catalog, site_url };
  }

  async saveDraft(a: WebsiteActor, content: WebsiteContent): Promise<WebsiteEditorView> {
    const tenantId = a.principal.tenantId;
    const own = websiteImageKeyPattern(tenantId);
    const foreign = content.gallery.findIndex((g) => !own.test(g.image_key));
    if (foreign >= 0)
      throw new AppError('VALIDATION_FAILED', 'The gallery names an image that was not uploaded here.', {
        fieldIssues: [
          {
            field: `gallery.${foreign}.image_key`,
            rule: 'unknown_image',
            message: 'must be an image uploaded to this site',
          },
        ],
      });
    await this.change(a, 'website.draft.save', (tx) => saveWebsiteDraft(tx, tenantId, content), {
      faq: content.faq.length,
      gallery: content.gallery.length,
    });
    return this.view(tenantId);
  }

  /** Publishes the draft with a fresh catalogue, so the site never shows grids or branches older than the publish. */
  async publish(a: WebsiteActor): Promise<WebsiteEditorView> {
    const tenantId = a.principal.tenantId;
    await this.refreshCatalog(tenantId);
    await this.change(a, 'website.publish', async (tx) => {
      const v = await publishWebsite(tx, tenantId, a.principal.userId);
      return { version: v.version };
    });
    return this.view(tenantId);
  }

  async rollback(a: WebsiteActor, version: number): Promise<WebsiteEditorView> {
    const tenantId = a.principal.tenantId;
    await this.change(a, 'website.rollback', async (tx) => {
      const v = await rollbackWebsite(tx, tenantId, version, a.principal.userId);
      return { restored: version, version: v.version };
    });
    return this.view(tenantId);
  }

  /** A short-lived link to the draft rendered by the landing host on the tenant's own host. */
  async previewLink(tenantId: string): Promise<WebsitePreviewLink> {
    const now = Date.now();
    const token = mintPreviewToken(this.box, tenantId, now);
    const origin = (await this.sources.siteUrl(tenantId)).replace(/\/+$/, '');
    const expires_at = new Date(now + WEBSITE_PREVIEW_TTL_MS).toISOString();
    return { url: `${origin}/_preview?token=${encodeURIComponent(token)}`, expires_at };
  }

  uploadImage(a: WebsiteActor, bytes: Buffer): Promise<StoredWebsiteImage> {
    return storeWebsiteImage(this.objects, a.principal.tenantId, bytes);
  }

  /** A gallery image, public like the site it is on (the editor's thumbnails). */
  image(tenantId: string, key: string) {
    return readWebsiteImage(this.objects, tenantId, key);
  }

  tracking(tenantId: string): Promise<WebsiteTrackingView> {
    return withTenant(this.db, tenantId, (tx) => websiteTracking(tx, tenantId));
  }

  async setTracking(a: WebsiteActor, input: WebsiteTrackingInput): Promise<WebsiteTrackingView> {
    const token =
      input.meta_capi_token === undefined ? 'kept' : input.meta_capi_token === null ? 'removed' : 'replaced';
    const write = async (tx: Queryable) => void (await setWebsiteTracking(tx, this.box, a.principal.tenantId, input));
    // The pixel id is public; of the token only what happened to it is recorded.
    await this.change(a, 'website.tracking.update', write, {
      meta_pixel_id: input.meta_pixel_id,
      meta_capi_token: token,
    });
    return this.tracking(a.principal.tenantId);
  }

  /** Rebuilds the tenant's website catalogue from its grids and branches (written only when it differs). */
  async refreshCatalog(tenantId: string): Promise<void> {
    const catalog = await this.catalog(tenantId);
    await withTenant(this.db, tenantId, (tx) => saveWebsiteCatalog(tx, tenantId, catalog));
  }

  private async catalog(tenantId: string) {
    const [grids, branches, currency] = await Promise.all([
      this.sources.grids(tenantId),
      this.sources.branches(tenantId),
      this.sources.currency(tenantId),
    ]);
    return buildWebsiteCatalog(grids, branches, currency);
  }

  private async change(
    a: WebsiteActor,
    action: string,
    /** Answers what the audit entry adds to `detail` (the version numbers), if anything. */
    write: (tx: Queryable) => Promise<Record<string, unknown> | void>,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    const tenantId = a.principal.tenantId;
    await withTenant(this.db, tenantId, async (tx) => {
      const more = await write(tx);
      await this.audit.record(tx, {
        tenantId,
        actor: { kind: 'user', id: a.principal.userId },
        action,
        target: { type: 'website', id: tenantId },
        ...(a.ip ? { ip: a.ip } : {}),
        detail: { ...detail, ...(more ?? {}) },
      });
    });
  }
}
