export { defaultWebsiteContent } from './default-content.js';
export type { WebsiteSnapshotSource } from './snapshot-source.js';
export { createStaticSnapshotSource, defaultWebsiteSnapshot, type StaticSnapshotSource } from './static-source.js';
