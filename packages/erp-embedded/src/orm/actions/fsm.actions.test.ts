import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpTest, odoo, startErpTest } from '../../testing/scratch-erp.js';

let T: ErpTest;
let location: number;
const stage = (name: string) => T.ref(`fieldservice.fsm_stage_${name}`);
const fso = (vals: Record<string, unknown> = {}) =>
  T.x<number>('fsm.order', 'create', [{ location_id: location, ...vals }]);
const read = async (id: number, fields: string[]) =>
  (await T.x<Record<string, unknown>[]>('fsm.order', 'read', [[id], fields]))[0]!;

beforeAll(async () => {
  T = await startErpTest('fsm');
  const owner = await T.x('res.partner', 'create', [{ name: 'Rivera Home' }]);
  location = await T.x('fsm.location', 'create', [
    { name: 'Rivera Home', owner_id: owner, street: '3315 Barton Hills Dr', city: 'Austin', zip: '78704' },
  ]);
});
afterAll(async () => T?.close());

describe('field service', () => {
  it('seeds the order stages New, Scheduled, In Progress, Completed and Cancelled (closed) and a default team', async () => {
    const stages = await T.x<Record<string, unknown>[]>('fsm.stage', 'search_read', [[['stage_type', '=', 'order']]], {
      fields: ['name', 'is_closed'],
    });
    expect(stages.map(({ id: _, ...s }) => s)).toEqual([
      { name: 'New', is_closed: false },
      { name: 'Scheduled', is_closed: false },
      { name: 'In Progress', is_closed: false },
      { name: 'Completed', is_closed: true },
      { name: 'Cancelled', is_closed: true },
    ]);
    expect(await T.x('fsm.team', 'search_read', [[]], { fields: ['name'] })).toEqual([
      { id: await T.ref('fieldservice.fsm_team_default'), name: 'Default Team' },
    ]);
  });

  it('numbers a new order FSO00001 in the first stage and the default team; a location is required', async () => {
    const id = await fso();
    expect(await read(id, ['name', 'stage_id', 'team_id', 'is_closed', 'company_id'])).toMatchObject({
      name: 'FSO00001',
      stage_id: [await stage('new'), 'New'],
      team_id: [await T.ref('fieldservice.fsm_team_default'), 'Default Team'],
      is_closed: false,
      company_id: [1, 'My Company'],
    });
    await expect(T.x('fsm.order', 'create', [{ description: 'nowhere' }])).rejects.toMatchObject(
      odoo('ValidationError', 'location_id'),
    );
  });

  it('completes through action_complete: Completed stage, closed, actual end set, new write_date', async () => {
    const id = await fso({ resolution: 'Installed', date_start: '2026-01-05 09:00:00' });
    await T.age('fsm.order', [id]);
    expect(await T.x('fsm.order', 'action_complete', [[id]])).toBe(true);
    const r = await read(id, ['stage_id', 'is_closed', 'date_end', 'write_date']);
    expect(r).toMatchObject({ stage_id: [await stage('completed'), 'Completed'], is_closed: true });
    expect(r.date_end).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(r.write_date).not.toBe('2000-01-01 00:00:00');
    await expect(T.x('fsm.order', 'action_complete', [[id]])).rejects.toMatchObject(
      odoo('UserError', 'already closed'),
    );
    await expect(T.x('fsm.order', 'action_cancel', [[id]])).rejects.toMatchObject(odoo('UserError', 'already closed'));
  });

  it('keeps an actual end that was already recorded', async () => {
    const id = await fso({ date_end: '2026-01-05 15:30:00' });
    await T.x('fsm.order', 'action_complete', [[id]]);
    expect(await read(id, ['date_end'])).toMatchObject({ date_end: '2026-01-05 15:30:00' });
  });

  it('refuses to write a closed stage directly (UserError), but moves between open stages', async () => {
    const id = await fso();
    await expect(T.x('fsm.order', 'write', [[id], { stage_id: await stage('completed') }])).rejects.toMatchObject(
      odoo('UserError', 'Cannot move to completed'),
    );
    await expect(T.x('fsm.order', 'write', [[id], { stage_id: await stage('cancelled') }])).rejects.toMatchObject(
      odoo('UserError'),
    );
    await expect(fso({ stage_id: await stage('completed') })).rejects.toMatchObject(odoo('UserError'));
    await T.x('fsm.order', 'write', [[id], { stage_id: await stage('in_progress') }]);
    expect(await read(id, ['stage_id', 'is_closed'])).toMatchObject({
      stage_id: [await stage('in_progress'), 'In Progress'],
      is_closed: false,
    });
  });

  it('cancels through action_cancel', async () => {
    const id = await fso();
    await T.x('fsm.order', 'action_cancel', [[id]]);
    expect(await read(id, ['stage_id', 'is_closed', 'date_end'])).toMatchObject({
      stage_id: [await stage('cancelled'), 'Cancelled'],
      is_closed: true,
      date_end: false,
    });
  });

  it('computes the scheduled end from start and duration, and the duration from start and end (OCA _calc_scheduled_dates)', async () => {
    const id = await fso({ scheduled_date_start: '2026-03-02 09:00:00', scheduled_duration: 2.5 });
    expect(await read(id, ['scheduled_date_end'])).toMatchObject({ scheduled_date_end: '2026-03-02 11:30:00' });
    await T.x('fsm.order', 'write', [
      [id],
      { scheduled_date_start: '2026-03-02 13:00:00', scheduled_date_end: '2026-03-02 17:00:00' },
    ]);
    expect(await read(id, ['scheduled_duration'])).toMatchObject({ scheduled_duration: 4 });
    await T.x('fsm.order', 'write', [[id], { scheduled_duration: 1 }]);
    expect(await read(id, ['scheduled_date_end'])).toMatchObject({ scheduled_date_end: '2026-03-02 14:00:00' });
  });

  it('deletes only orders still in the default stage', async () => {
    const fresh = await fso();
    const moved = await fso({ stage_id: await stage('scheduled') });
    await expect(T.x('fsm.order', 'unlink', [[moved]])).rejects.toMatchObject(
      odoo('ValidationError', 'You cannot delete this order.'),
    );
    expect(await T.x('fsm.order', 'unlink', [[fresh]])).toBe(true);
  });

  it('completes helpdesk stages: New, In Progress, Solved (closing, folded) linked to the team', async () => {
    const team = await T.ref('helpdesk.helpdesk_team1');
    expect(
      await T.x('helpdesk.stage', 'search_read', [[]], { fields: ['name', 'is_close', 'fold', 'team_ids'] }),
    ).toEqual([
      { id: await T.ref('helpdesk.stage_new'), name: 'New', is_close: false, fold: false, team_ids: [team] },
      {
        id: await T.ref('helpdesk.stage_in_progress'),
        name: 'In Progress',
        is_close: false,
        fold: false,
        team_ids: [team],
      },
      { id: await T.ref('helpdesk.stage_solved'), name: 'Solved', is_close: true, fold: true, team_ids: [team] },
    ]);
  });
});
