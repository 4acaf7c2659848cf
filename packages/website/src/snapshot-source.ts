/**
 * How the landing host gets a tenant's site: one snapshot per tenant (docs/website.md), read from
 * the database on a miss and kept in the process until the tenant's website, settings, catalogue or
 * domains change (a NOTIFY heard by every process), so a page view never reads the database.
 */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';

export interface WebsiteSnapshotSource {
  /** The tenant's snapshot (its published content, else the defaults); cached per process. */
  get(tenantId: string): Promise<WebsiteSnapshot>;
  /** Called with the tenant whose snapshot changed (null: every tenant), after the cache dropped it. */
  onChange(listener: (tenantId: string | null) => void): void;
}
