export { defaultWebsiteContent } from './default-content.js';
export type { WebsiteSnapshotSource } from './snapshot-source.js';
