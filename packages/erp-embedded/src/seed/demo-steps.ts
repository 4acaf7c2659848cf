/** What the demo seed's steps share: business methods called as the seed's user, dates relative to today. */
import type { Env } from '../orm/env.js';
import { todayUtc } from '../orm/lookup.js';
import { resolveMethod } from '../orm/methods.js';

/** Runs a model's business method (`action_confirm`, `button_done`...) on `ids`, as the ORM's RPC would. */
export const call = async (
  env: Env,
  model: string,
  method: string,
  ids: number[],
  kw: Record<string, unknown> = {},
) => {
  const { m, run } = resolveMethod(env, model, method);
  return run(env, m, [ids], kw);
};
/** Today plus `offset` days (UTC) as a date, or as a datetime at `time`. */
export const day = (offset: number, time?: string) => {
  const d = todayUtc(new Date(Date.now() + offset * 86_400_000));
  return time ? `${d} ${time}` : d;
};
