/**
 * The record writes of write.ts, handed to the modules write.ts calls (x2many commands, model hooks)
 * so they can create or change other records without importing write.ts back.
 */
import type { ModelDef } from '../registry.js';
import type { Env } from './env.js';

export interface RecordWrites {
  createRecord(env: Env, m: ModelDef, raw: unknown): Promise<number>;
  write(env: Env, m: ModelDef, ids: unknown, raw: unknown): Promise<true>;
  unlink(env: Env, m: ModelDef, ids: unknown): Promise<true>;
}
