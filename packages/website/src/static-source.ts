/**
 * Snapshot sources that need no database: a map of snapshots (tests, the bench, a preview) and the
 * snapshot a tenant's site falls back to when the landing host has no real source wired, made from
 * the tenant's own name and the default copy, so a tenant host never shows the platform's site.
 */
import type { WebsiteSnapshot } from '@platform/contracts/website.js';

import { defaultWebsiteContent } from './default-content.js';
import type { WebsiteSnapshotSource } from './snapshot-source.js';

export interface StaticSnapshotSource extends WebsiteSnapshotSource {
  /** Replaces the tenant's snapshot and tells the listeners, as a published edit would. */
  set(tenantId: string, snapshot: WebsiteSnapshot): void;
  /** How many times get() was called: lets a test prove a cached page did not ask again. */
  readonly reads: number;
}

export function createStaticSnapshotSource(
  initial: Map<string, WebsiteSnapshot> | Record<string, WebsiteSnapshot>,
): StaticSnapshotSource {
  const snapshots = new Map(initial instanceof Map ? initial : Object.entries(initial));
  const listeners: ((tenantId: string | null) => void)[] = [];
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    get(tenantId) {
      reads++;
      const s = snapshots.get(tenantId);
      return s ? Promise.resolve(s) : Promise.reject(new Error(`no website snapshot for tenant ${tenantId}`));
    },
    onChange(listener) {
      listeners.push(listener);
    },
    set(tenantId, snapshot) {
      snapshots.set(tenantId, snapshot);
      for (const l of listeners) l(tenantId);
    },
  };
}

/** A tenant's site before anything is published or when no source is wired: its own name, default copy, no catalogue. */
export function defaultWebsiteSnapshot(t: { tenantId: string; name: string; primaryHost: string }): WebsiteSnapshot {
  return {
    tenant_id: t.tenantId,
    version: 0,
    content: defaultWebsiteContent(t.name),
    catalog: { products: [], areas: [] },
    company: {
      name: t.name,
      phone: null,
      email: null,
      address: null,
      logo_url: null,
      favicon_url: null,
      primary_color: null,
      secondary_color: null,
      social_facebook: null,
      social_instagram: null,
      meta_title: null,
      meta_description: null,
      helpdesk_enabled: false,
    },
    primary_host: t.primaryHost,
    meta_pixel_id: null,
  };
}
