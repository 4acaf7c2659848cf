export { defaultWebsiteContent } from './default-content.js';
export type { WebsiteSnapshotSource } from './snapshot-source.js';
export { createStaticSnapshotSource, defaultWebsiteSnapshot, type StaticSnapshotSource } from './static-source.js';
export { buildWebsiteCatalog, type CatalogBranch, type CatalogGrid, shownCatalog, slugify } from './catalog.js';
export {
  createWebsiteSnapshotSource,
  type ListeningSnapshotSource,
  readSnapshot,
  type WebsiteSnapshotSourceOptions,
} from './website-snapshots.js';
export {
  EMPTY_CATALOG,
  publishWebsite,
  rollbackWebsite,
  saveWebsiteCatalog,
  saveWebsiteDraft,
  websiteCompanyName,
  websiteEditorView,
} from './website.service.js';
export { WEBSITE_CHANNEL } from './website.repo.js';
export {
  hasOwnMetaCapi,
  readMetaCapiCredentials,
  readMetaCapiToken,
  setWebsiteTracking,
  type WebsiteTrackingInput,
  type WebsiteTrackingView,
  websiteTracking,
} from './tracking.js';
export {
  readWebsiteImage,
  storeWebsiteImage,
  type StoredWebsiteImage,
  WEBSITE_IMAGE_MAX_WIDTH,
  websiteImageKeyPattern,
} from './images.js';
export { mintPreviewToken, openWebsitePreview, previewTokenValid, WEBSITE_PREVIEW_TTL_MS } from './preview.js';
