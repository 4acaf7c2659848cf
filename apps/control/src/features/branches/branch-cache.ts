/**
 * A tenant's branches in process memory: the branch scope is read on every list of leads and jobs,
 * and it changes rarely. It is a security boundary (who sees which jobs), so it is kept only while
 * this process listens for changes: a trigger on `branches` and `branch_members` (migration 0530)
 * NOTIFYs `platform_branches` with the tenant id on every change, however made, and the branches
 * service also forgets its own tenant's entry as soon as its change commits. Not listening (before
 * start, after stop), every read goes to the database. The TTL is only a safety net for a notice lost
 * between a dropped LISTEN connection and its reconnect (which then forgets everything).
 */
import type { Db } from '@platform/db';

import type { BranchRow } from './branches.repo.js';

export const BRANCHES_CHANNEL = 'platform_branches';

interface Entry {
  rows: readonly BranchRow[];
  at: number;
}

export interface BranchCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export class BranchCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every invalidation: a read that started before it must not fill the cache after. */
  private generation = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly read: (tenantId: string) => Promise<BranchRow[]>,
    opts: BranchCacheOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  async start(): Promise<void> {
    if (this.stopListening) return;
    this.invalidate('');
    this.stopListening = await this.db.listen(BRANCHES_CHANNEL, (tenantId) => this.invalidate(tenantId));
  }

  async stop(): Promise<void> {
    const stop = this.stopListening;
    this.stopListening = undefined;
    this.invalidate('');
    await stop?.();
  }

  private listening(): boolean {
    return this.stopListening !== undefined;
  }

  /** Forgets one tenant's branches, or every tenant's for `''` ("something may have changed"). */
  invalidate(tenantId: string): void {
    this.generation++;
    if (tenantId) this.entries.delete(tenantId);
    else this.entries.clear();
  }

  /** The tenant's branches (default first), from memory while listening and fresh. Do not mutate. */
  async get(tenantId: string): Promise<readonly BranchRow[]> {
    if (!this.listening()) return this.read(tenantId);
    const hit = this.entries.get(tenantId);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.rows;
    const generation = this.generation;
    const rows = freeze(await this.read(tenantId));
    // Stopped meanwhile, or a change heard meanwhile: answer, but keep nothing.
    if (generation === this.generation && this.listening()) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(tenantId, { rows, at: this.now() });
    }
    return rows;
  }
}

/** Shared between requests: frozen, so a caller that mutates fails loudly instead of leaking. */
function freeze(rows: BranchRow[]): readonly BranchRow[] {
  for (const r of rows)
    Object.freeze(
      Object.assign(r, {
        zip_codes: Object.freeze(r.zip_codes) as string[],
        member_ids: Object.freeze(r.member_ids) as string[],
      }),
    );
  return Object.freeze(rows);
}
