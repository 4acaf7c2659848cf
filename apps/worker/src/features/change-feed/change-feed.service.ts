/**
 * The ERP change feed: for each tenant's ERP database and watched model, reads the records changed
 * since a (write_date, id) cursor and turns each transition into one outbox event. The ERP is read
 * outside any transaction; the result is committed under a per-feed lock only if no other worker
 * advanced the cursor meanwhile, and every event also carries a unique dedupe key: one event per
 * transition with any number of workers and restarts. Works the same against Odoo and the embedded ERP.
 */
import type { Db } from '@platform/db';
import type { Erp, ErpRecord } from '@platform/erp';
import { enqueue } from '@platform/outbox';
import { listTenants } from '@platform/tenancy';

import * as repo from './change-feed.repo.js';
import { labelOf, valueOf, WATCHED_MODELS, type WatchedModel } from './watched-models.js';

/** Odoo stamps write_date at transaction start, so a slow transaction commits "in the past": re-read this far back. */
export const OVERLAP_SECONDS = 60;
const PAGE = 200;

export interface ChangeFeedOptions {
  defaultErpDb: string;
  /** The ERP of a tenant (its own routing, else the default connection in its erp_db). */
  erpFor: (tenantId: string, db: string | null) => Erp | Promise<Erp>;
  models?: WatchedModel[];
  onEvents?: (n: number) => void;
  logger?: { warn(obj: object, msg?: string): void };
}

export function shiftOdooDatetime(s: string, seconds: number): string {
  const d = new Date(`${s.replace(' ', 'T')}Z`);
  return new Date(d.getTime() + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

export class ChangeFeedService {
  /** The last failure per feed, so a lasting one (a module not installed) is logged once, not every pass. */
  private readonly failures = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly opts: ChangeFeedOptions,
  ) {}

  /** One pass over every tenant and watched model; returns the number of events emitted. */
  async pollAll(): Promise<number> {
    let events = 0;
    for (const t of await listTenants(this.db)) {
      // A tenant being provisioned, suspended or deleted is not watched (its ERP may not exist yet).
      if (t.status !== 'active') continue;
      const erpDb = t.erp_db ?? this.opts.defaultErpDb;
      for (const w of this.opts.models ?? WATCHED_MODELS) {
        const feed = `${t.id}:${erpDb}:${w.feed ?? w.model}`;
        try {
          events += await this.pollModel(
            { tenantId: t.id, erpDb, model: w.feed ?? w.model },
            w,
            await this.opts.erpFor(t.id, t.erp_db),
          );
          this.failures.delete(feed);
        } catch (err) {
          // One model failing (ERP down, module not installed) must not stop the others.
          const reason = err instanceof Error ? err.message : String(err);
          if (this.failures.get(feed) !== reason)
            this.opts.logger?.warn({ err, erp_db: erpDb, model: w.model }, 'change feed: poll failed; will retry');
          this.failures.set(feed, reason);
        }
      }
    }
    if (events) this.opts.onEvents?.(events);
    return events;
  }

  async pollModel(k: repo.Key, w: WatchedModel, erp: Erp): Promise<number> {
    const before = await repo.readCursor(this.db, k);
    const rows = await this.changedSince(erp, w, before);
    return this.db.transaction(async (tx) => {
      await repo.lockFeed(tx, k);
      const now = await repo.readCursor(tx, k);
      // Another worker committed this feed since we read the ERP: its view is as new as ours; skip.
      if (JSON.stringify(now ?? null) !== JSON.stringify(before ?? null)) return 0;
      const seen = await repo.readStates(
        tx,
        k,
        rows.map((r) => r.id),
      );
      let events = 0;
      for (const r of rows) {
        const writeDate = String(r.write_date);
        const next = { value: valueOf(r[w.field]), label: labelOf(r[w.field]) };
        const prev = seen.get(r.id);
        if (prev && prev.value === next.value) continue;
        if (before?.baseline_done && w.isEvent(prev?.value ?? null, next.value)) {
          const id = await enqueue(tx, {
            tenantId: k.tenantId,
            topic: w.topic,
            aggregateId: `${w.model}:${r.id}`,
            dedupeKey: `${k.erpDb}:${w.model}:${r.id}:${w.field}:${next.value}:${writeDate}`,
            payload: {
              erpDb: k.erpDb,
              model: w.model,
              recordId: r.id,
              field: w.field,
              old: prev?.value ?? null,
              new: next.value,
              oldLabel: prev?.label ?? null,
              newLabel: next.label,
              writeDate,
              record: pick(r, w.fields),
            },
          });
          if (id !== null) events++;
        }
        await repo.saveState(tx, k, r.id, next, writeDate);
      }
      const last = rows.at(-1);
      await repo.saveCursor(tx, k, {
        last_write_date: last ? String(last.write_date) : (before?.last_write_date ?? '1970-01-01 00:00:00'),
        last_id: last ? last.id : (before?.last_id ?? 0),
        baseline_done: true,
      });
      return events;
    });
  }

  /** Records of `w` written since the cursor (minus the overlap), oldest first, every page. */
  private async changedSince(erp: Erp, w: WatchedModel, c: repo.Cursor | undefined): Promise<ErpRecord[]> {
    const domain = c
      ? [
          ...w.domain,
          ['write_date', '>=', shiftOdooDatetime(c.last_write_date, -OVERLAP_SECONDS)] as [string, string, unknown],
        ]
      : w.domain;
    const out: ErpRecord[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await erp.searchRead(w.model, domain, {
        fields: ['write_date', w.field, ...w.fields],
        order: 'write_date asc, id asc',
        offset,
        limit: PAGE,
        context: { active_test: false },
      });
      out.push(...page);
      if (page.length < PAGE) return out;
    }
  }
}

function pick(r: ErpRecord, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f in r).map((f) => [f, r[f]]));
}
