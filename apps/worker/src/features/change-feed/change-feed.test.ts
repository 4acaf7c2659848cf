/**
 * The change feed's mechanics on a model every ERP has (helpdesk tickets moving through stages):
 * a baseline emits nothing, each transition emits exactly one event with old and new values, and
 * re-polls, restarts and a second worker never duplicate one.
 */
import { describe, expect, it } from 'vitest';

import { useErpOnPlatformDb } from '../../../test/support/erp-on-platform-db.js';
import { ChangeFeedService, shiftOdooDatetime } from './change-feed.service.js';
import { TOPIC_FSM_STAGE_CHANGED, type WatchedModel } from './watched-models.js';

const TICKET_STAGES: WatchedModel = {
  model: 'helpdesk.ticket',
  field: 'stage_id',
  domain: [],
  fields: ['name'],
  topic: TOPIC_FSM_STAGE_CHANGED,
  isEvent: (o, n) => o !== null && o !== n,
};

const fx = useErpOnPlatformDb();
const feed = () =>
  new ChangeFeedService(fx.db, { defaultErpDb: fx.server.dbName, erpFor: () => fx.erp, models: [TICKET_STAGES] });
const events = async () =>
  (
    await fx.db.query<{ payload: Record<string, any> }>(`SELECT payload FROM outbox WHERE topic = $1 ORDER BY id`, [
      TOPIC_FSM_STAGE_CHANGED,
    ])
  ).rows.map((r) => r.payload);
const stage = async (name: string) => (await fx.erp.search('helpdesk.stage', [['name', '=', name]]))[0]!;

describe('the ERP change feed', () => {
  it('emits nothing for what existed before its first pass, then one event per transition with old and new values', async () => {
    const before = await fx.erp.create('helpdesk.ticket', { name: 'Existing ticket' });
    expect(await feed().pollAll()).toBe(0);
    await fx.erp.write('helpdesk.ticket', [before], { stage_id: await stage('In Progress') });
    expect(await feed().pollAll()).toBe(1);
    expect(await events()).toEqual([
      expect.objectContaining({
        model: 'helpdesk.ticket',
        recordId: before,
        field: 'stage_id',
        oldLabel: 'New',
        newLabel: 'In Progress',
        record: { name: 'Existing ticket' },
      }),
    ]);
  });

  it('a re-poll, a restarted worker and two workers at once never emit a transition twice', async () => {
    const id = await fx.erp.create('helpdesk.ticket', { name: 'Busy ticket' });
    await feed().pollAll(); // first seen: creation is not a transition
    await fx.erp.write('helpdesk.ticket', [id], { stage_id: await stage('In Progress') });
    const [a, b] = await Promise.all([feed().pollAll(), feed().pollAll()]);
    expect(a + b).toBe(1);
    expect(await feed().pollAll()).toBe(0);
    await fx.erp.write('helpdesk.ticket', [id], { stage_id: await stage('Solved') });
    expect(await feed().pollAll()).toBe(1);
    const mine = (await events()).filter((e) => e.recordId === id);
    expect(mine.map((e) => [e.oldLabel, e.newLabel])).toEqual([
      ['New', 'In Progress'],
      ['In Progress', 'Solved'],
    ]);
  });

  it('a write that changes another field is not a transition', async () => {
    const id = await fx.erp.create('helpdesk.ticket', { name: 'Quiet ticket' });
    await feed().pollAll();
    const n = (await events()).length;
    await fx.erp.write('helpdesk.ticket', [id], { name: 'Quiet ticket (renamed)' });
    expect(await feed().pollAll()).toBe(0);
    expect((await events()).length).toBe(n);
  });

  it('re-reads a minute back from its cursor, because Odoo stamps write_date at transaction start', () => {
    expect(shiftOdooDatetime('2026-01-01 00:00:30', -60)).toBe('2025-12-31 23:59:30');
  });
});
