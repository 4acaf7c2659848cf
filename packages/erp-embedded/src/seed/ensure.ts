/**
 * Idempotent seeding by external id (Odoo's `noupdate` data): a record is created through the ORM
 * (defaults, computes, write_date) and registered in ir.model.data the first time; later runs find
 * the external id and leave the record alone, so running a seed twice creates nothing twice.
 */
import type { Env } from '../orm/env.js';
import { rows, tbl } from '../orm/lookup.js';
import { createRecord } from '../orm/write.js';

export class Seeder {
  private constructor(
    readonly env: Env,
    private readonly known: Map<string, number>,
  ) {}

  /** Loads the external ids of `modules` (one query) whose records still exist. */
  static async load(env: Env, modules: string[]): Promise<Seeder> {
    const known = new Map<string, number>();
    const list = await rows<{ module: string; name: string; model: string; res_id: number }>(
      env,
      `SELECT module, name, model, res_id FROM ${tbl(env, 'ir.model.data')} WHERE module = ANY($1::text[])`,
      [modules],
    );
    for (const model of new Set(list.map((x) => x.model))) {
      if (!env.registry.has(model)) continue;
      const mine = list.filter((x) => x.model === model);
      const alive = new Set(
        (
          await rows<{ id: number }>(env, `SELECT id FROM ${tbl(env, model)} WHERE id = ANY($1::integer[])`, [
            mine.map((x) => x.res_id),
          ])
        ).map((r) => r.id),
      );
      for (const x of mine) if (alive.has(x.res_id)) known.set(`${x.module}.${x.name}`, x.res_id);
    }
    return new Seeder(env, known);
  }

  created = 0;
  existing = 0;

  id(xmlid: string): number {
    const id = this.known.get(xmlid);
    if (id === undefined) throw new Error(`seed: ${xmlid} is not there`);
    return id;
  }

  has(xmlid: string): boolean {
    return this.known.has(xmlid);
  }

  /** Registers `xmlid` for an existing record (replacing a dangling one). */
  async name(xmlid: string, model: string, id: number): Promise<void> {
    const [module, name] = xmlid.split('.') as [string, string];
    // ir.model.data is bookkeeping: one upsert instead of the ORM's create (same columns).
    await this.env.q.query(
      `INSERT INTO ${tbl(this.env, 'ir.model.data')} (module, name, model, res_id, noupdate, create_uid, write_uid, create_date, write_date)
       VALUES ($1, $2, $3, $4, true, $5, $5, now() at time zone 'utc', now() at time zone 'utc')
       ON CONFLICT (module, name) DO UPDATE SET model = EXCLUDED.model, res_id = EXCLUDED.res_id, write_date = EXCLUDED.write_date`,
      [module, name, model, id, this.env.uid],
    );
    this.known.set(xmlid, id);
  }

  /**
   * The record of `xmlid`, created from `vals` when missing; `then` runs once, right after the
   * creation (business actions: confirm, post, pay...).
   */
  async ensure(
    xmlid: string,
    model: string,
    vals: Record<string, unknown>,
    then?: (id: number) => Promise<unknown>,
  ): Promise<number> {
    const found = this.known.get(xmlid);
    if (found !== undefined) {
      this.existing++;
      return found;
    }
    const id = await createRecord(this.env, this.env.registry.get(model), vals);
    await this.name(xmlid, model, id);
    if (then) await then(id);
    this.created++;
    return id;
  }
}
