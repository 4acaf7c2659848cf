/**
 * The API's six stage keys over the ERP's FSM order stages (OCA fieldservice, found by their external
 * ids so renamed stages still map): new, scheduled, on_site = "In Progress", done = "Completed",
 * cancelled = "Cancelled". OCA has no "travel" stage: the platform adds one (external id
 * `platform_jobs.fsm_stage_travel`, sequence 25, between Scheduled and In Progress) to the tenant's
 * ERP database the first time it is needed. Any other stage a tenant made reads as its nearest key.
 */
import type { Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

import type { StageKey } from '../jobs.types.js';

const XMLIDS: Record<Exclude<StageKey, 'travel'>, string> = {
  new: 'fsm_stage_new',
  scheduled: 'fsm_stage_scheduled',
  on_site: 'fsm_stage_in_progress',
  done: 'fsm_stage_completed',
  cancelled: 'fsm_stage_cancelled',
};
const TRAVEL = { module: 'platform_jobs', name: 'fsm_stage_travel' };

export interface StageMap {
  idOf(key: StageKey): number;
  keyOf(id: number): StageKey;
  /** Every ERP stage that reads as `key` (a tenant's own stages included). */
  idsOf(key: StageKey): number[];
  nameOf(id: number): string;
}

// Stages change rarely; one look-up per ERP client (per tenant) and process.
const cache = new WeakMap<Erp, Promise<StageMap>>();

export function fsmStages(erp: Erp): Promise<StageMap> {
  let p = cache.get(erp);
  if (!p) {
    p = load(erp);
    cache.set(erp, p);
    p.catch(() => cache.delete(erp));
  }
  return p;
}

async function load(erp: Erp): Promise<StageMap> {
  const refs = await erp.searchRead(
    'ir.model.data',
    [
      ['model', '=', 'fsm.stage'],
      ['module', 'in', ['fieldservice', TRAVEL.module]],
    ],
    { fields: ['module', 'name', 'res_id'] },
  );
  const byXmlid = new Map(refs.map((r) => [`${String(r.module)}.${String(r.name)}`, Number(r.res_id)]));
  const ids = {} as Record<StageKey, number>;
  for (const [key, name] of Object.entries(XMLIDS)) {
    const id = byXmlid.get(`fieldservice.${name}`);
    if (!id) throw new AppError('ERP_REJECTED', `The ERP has no field service stage fieldservice.${name}.`);
    ids[key as StageKey] = id;
  }
  ids.travel = byXmlid.get(`${TRAVEL.module}.${TRAVEL.name}`) ?? (await addTravelStage(erp));
  const stages = await erp.searchRead('fsm.stage', [['stage_type', '=', 'order']], {
    fields: ['name', 'sequence', 'is_closed'],
  });
  const keyById = new Map<number, StageKey>(Object.entries(ids).map(([k, id]) => [id, k as StageKey]));
  const names = new Map(stages.map((s) => [s.id, String(s.name)]));
  const seq = (id: number) => Number(stages.find((s) => s.id === id)?.sequence ?? 0);
  for (const s of stages) {
    if (keyById.has(s.id)) continue;
    // A tenant's own stage: closed ones read as done, open ones as the mapped stage just before it.
    const below = [...keyById.entries()]
      .filter(([id]) => seq(id) <= Number(s.sequence))
      .sort((a, b) => seq(b[0]) - seq(a[0]));
    keyById.set(s.id, s.is_closed ? 'done' : (below.find(([, k]) => k !== 'done' && k !== 'cancelled')?.[1] ?? 'new'));
  }
  return {
    idOf: (key) => ids[key],
    keyOf: (id) => keyById.get(id) ?? 'new',
    idsOf: (key) => [...keyById.entries()].filter(([, k]) => k === key).map(([id]) => id),
    nameOf: (id) => names.get(id) ?? '',
  };
}

async function addTravelStage(erp: Erp): Promise<number> {
  const named = await erp.search('fsm.stage', [
    ['name', '=', 'Travel'],
    ['stage_type', '=', 'order'],
  ]);
  const id = named[0] ?? (await erp.create('fsm.stage', { name: 'Travel', sequence: 25, stage_type: 'order' }));
  try {
    await erp.create('ir.model.data', { ...TRAVEL, model: 'fsm.stage', res_id: id, noupdate: true });
  } catch (e) {
    // Another process linked it first (unique module+name): use theirs.
    const again = await erp.searchRead(
      'ir.model.data',
      [
        ['module', '=', TRAVEL.module],
        ['name', '=', TRAVEL.name],
      ],
      { fields: ['res_id'] },
    );
    if (!again[0]) throw e;
    return Number(again[0].res_id);
  }
  return id;
}
