/** The shape of a model's hooks, shared by the hook tables (`*.hooks.ts`) and the dispatcher (index.ts). */
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import type { RecordWrites } from '../record-writes.js';

export type Vals = Record<string, unknown>;

/** `rw`: the ORM's record writes, for hooks that create or change other records. */
export interface ModelHooks {
  /** Adjusts (or refuses) the values of a create (`ids` undefined) or a write of `ids`. */
  prepare?(env: Env, m: ModelDef, vals: Vals, ids: number[] | undefined, rw: RecordWrites): Promise<void>;
  /** After the record and its x2many values exist, before computes and constraints. */
  afterCreate?(env: Env, m: ModelDef, id: number, vals: Vals, rw: RecordWrites): Promise<void>;
  /** Constraints checked after a create or write (and its computes), like `@api.constrains`. */
  validate?(env: Env, m: ModelDef, ids: number[]): Promise<void>;
  /** Refuses an unlink (the records exist and the caller may delete them). */
  beforeUnlink?(env: Env, m: ModelDef, ids: number[]): Promise<void>;
  /** After any change (cache invalidation). */
  afterChange?(env: Env, m: ModelDef): void;
}
