/**
 * fsm.order methods (OCA `fieldservice`): action_complete moves the order to the closed "Completed"
 * stage (`fieldservice.fsm_stage_completed`) and sets the actual end (date_end, now when empty);
 * action_cancel moves it to "Cancelled". A resolution is not required (OCA does not require one).
 * An order already in a closed stage is refused.
 */
import { userError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { nowUtc, refId, rows, tbl } from '../lookup.js';
import { write } from '../write.js';
import { type Action, lockRecords, recordMethod } from './common.js';

async function close(
  env: Env,
  m: ModelDef,
  ids: number[],
  xmlid: string,
  verb: string,
  extra: (row: { date_end: string | null }) => object,
) {
  await lockRecords(env, m, ids, ['stage_id']);
  const orders = await rows<{
    id: number;
    name: string;
    closed: boolean | null;
    stage: string | null;
    date_end: string | null;
  }>(
    env,
    `SELECT o.id, o.name, s.is_closed AS closed, s.name AS stage, to_char(o.date_end, 'YYYY-MM-DD HH24:MI:SS') AS date_end
       FROM ${tbl(env, m.name)} o LEFT JOIN ${tbl(env, 'fsm.stage')} s ON s.id = o.stage_id WHERE o.id = ANY($1::integer[]) ORDER BY o.id`,
    [ids],
  );
  const closed = orders.find((o) => o.closed);
  if (closed) throw userError(`Cannot ${verb} ${closed.name}: the order is already closed (${closed.stage}).`);
  const stage = await refId(env, xmlid, 'fsm.stage');
  if (!stage) throw userError(`The stage ${xmlid} is missing.`);
  for (const o of orders) await write(env, m, [o.id], { stage_id: stage, ...extra(o) });
  return true;
}

export const fsmActions: Record<string, Action> = {
  action_complete: recordMethod((env, m, ids) =>
    close(env, m, ids, 'fieldservice.fsm_stage_completed', 'complete', (o) =>
      o.date_end ? {} : { date_end: nowUtc() },
    ),
  ),
  action_cancel: recordMethod((env, m, ids) =>
    close(env, m, ids, 'fieldservice.fsm_stage_cancelled', 'cancel', () => ({})),
  ),
};
