/**
 * Hooks of OCA field service orders: default stage and team, scheduled dates (`_calc_scheduled_dates`),
 * no direct move to a closed stage (use action_complete / action_cancel), deletion only in the default stage.
 */
import { userError, validationError } from '../../errors.js';
import type { ModelDef } from '../../registry.js';
import type { Env } from '../env.js';
import { asId, nowUtc, one, tbl } from '../lookup.js';
import type { RecordWrites } from '../record-writes.js';
import { companyFor } from './company.js';
import type { ModelHooks, Vals } from './hook-types.js';

const given = (v: unknown) => v !== undefined && v !== null;
const toMs = (v: unknown): number | undefined => {
  if (typeof v !== 'string' || !v) return undefined;
  const s = /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v} 00:00:00` : v.slice(0, 19);
  const ms = Date.parse(`${s.replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? undefined : ms;
};
const fromMs = (ms: number) => nowUtc(new Date(ms));
const HOUR = 3_600_000;

/** OCA `_calc_scheduled_dates`: start + end give the duration, end alone the start, a duration the end. */
async function calcScheduledDates(env: Env, vals: Vals, ids?: number[]): Promise<void> {
  const changed = given(vals.scheduled_duration) || !!vals.scheduled_date_start || !!vals.scheduled_date_end;
  if (!changed) {
    if (given(vals.scheduled_date_start)) vals.scheduled_date_end = false;
    return;
  }
  const cur = ids?.length
    ? await one<{ start: string | null; duration: number | null }>(
        env,
        `SELECT to_char(scheduled_date_start, 'YYYY-MM-DD HH24:MI:SS') AS start, scheduled_duration AS duration
         FROM ${tbl(env, 'fsm.order')} WHERE id = $1`,
        [ids[0]],
      )
    : undefined;
  const start = toMs(vals.scheduled_date_start);
  const end = toMs(vals.scheduled_date_end);
  if (start !== undefined && end !== undefined) {
    vals.scheduled_duration = (Math.floor(end / 60_000) - Math.floor(start / 60_000)) / 60;
  } else if (end !== undefined) {
    const hours = Number(vals.scheduled_duration || cur?.duration || 0);
    vals.scheduled_date_start = fromMs(end - hours * HOUR);
  } else if (given(vals.scheduled_duration)) {
    const from = start ?? toMs(cur?.start);
    if (from !== undefined) vals.scheduled_date_end = fromMs(from + Number(vals.scheduled_duration || 0) * HOUR);
  }
}

async function defaults(env: Env, m: ModelDef, vals: Vals): Promise<void> {
  const company = await companyFor(env, m, vals);
  if (!asId(vals.stage_id) && env.context.default_stage_id === undefined) {
    const stage = await one<{ id: number }>(
      env,
      `SELECT id FROM ${tbl(env, 'fsm.stage')}
      WHERE stage_type = 'order' AND NOT is_closed AND (company_id IS NULL OR company_id = $1)
      ORDER BY is_default DESC, sequence, id LIMIT 1`,
      [company || null],
    );
    if (!stage) throw validationError('You must create an FSM order stage first.');
    vals.stage_id = stage.id;
  }
  if (!asId(vals.team_id) && env.context.default_team_id === undefined) {
    const team = await one<{ id: number }>(
      env,
      `SELECT id FROM ${tbl(env, 'fsm.team')}
      WHERE company_id IS NULL OR company_id = $1 ORDER BY sequence, id LIMIT 1`,
      [company || null],
    );
    if (!team) throw validationError('You must create an FSM team first.');
    vals.team_id = team.id;
  }
}

const DELEGATED = ['name', 'phone', 'mobile'] as const;

/**
 * OCA's location IS its partner (`_inherits`): a partner's new name or phones are its locations'
 * too. The flat locations here take all three in the same call (a location made before with only
 * its own name gets the phones with the name), and their orders' related phone follows.
 */
export async function followPartner(env: Env, vals: Vals, ids: number[], rw: RecordWrites): Promise<void> {
  if (!DELEGATED.some((f) => f in vals)) return;
  const found = await env.q.query<{ id: number; partner: number } & Record<(typeof DELEGATED)[number], unknown>>(
    `SELECT l.id, p.id AS partner, p.name, p.phone, p.mobile FROM ${tbl(env, 'fsm.location')} l
       JOIN ${tbl(env, 'res.partner')} p ON p.id = l.partner_id WHERE l.partner_id = ANY($1::integer[])`,
    [ids],
  );
  const m = env.registry.get('fsm.location');
  for (const partner of new Set(found.rows.map((r) => r.partner))) {
    const rows = found.rows.filter((r) => r.partner === partner);
    const now = rows[0]!;
    const copy = Object.fromEntries(DELEGATED.map((f) => [f, f in vals ? vals[f] : (now[f] ?? false)]));
    await rw.write(
      env,
      m,
      rows.map((r) => r.id),
      copy,
    );
  }
}

export const fsmHooks: Record<string, ModelHooks> = {
  'fsm.order': {
    async prepare(env, m, vals, ids) {
      const stage = asId(vals.stage_id);
      if (stage && !env.action) {
        const s = await one<{ name: string; is_closed: boolean }>(
          env,
          `SELECT name, is_closed FROM ${tbl(env, 'fsm.stage')} WHERE id = $1`,
          [stage],
        );
        // OCA refuses the Completed stage this way ("Cannot move to completed from Kanban"); here every closed stage.
        if (s?.is_closed) throw userError(`Cannot move to ${s.name.toLowerCase()} from Kanban`);
      }
      if (!ids) await defaults(env, m, vals);
      await calcScheduledDates(env, vals, ids);
    },
    // OCA `can_unlink`: only orders still in the default stage.
    async beforeUnlink(env, m, ids) {
      const other = await one(
        env,
        `SELECT 1 FROM ${tbl(env, m.name)} o JOIN ${tbl(env, 'fsm.stage')} s ON s.id = o.stage_id
        WHERE o.id = ANY($1::integer[]) AND NOT s.is_default`,
        [ids],
      );
      if (other) throw validationError('You cannot delete this order.');
    },
  },
};
