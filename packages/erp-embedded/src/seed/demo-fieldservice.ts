/**
 * The field-service part of the demo seed (demo.ts): teams, workers, a location per customer and
 * orders in every stage.
 */
import type { Env } from '../orm/env.js';
import { CUSTOMERS, FSM_PERSONS } from './demo-data.js';
import { call, day } from './demo-steps.js';
import type { Seeder } from './ensure.js';

export async function fieldService(
  env: Env,
  s: Seeder,
  x: (n: string) => string,
  C: Record<string, number>,
  so: Record<string, number>,
) {
  const install = await s.ensure(x('fsm_team_install'), 'fsm.team', { name: 'Install Crew A', sequence: 10 });
  const measure = await s.ensure(x('fsm_team_measure'), 'fsm.team', { name: 'Measure & Consult', sequence: 20 });
  const W: Record<string, number> = {};
  for (const [xmlid, name, phone] of FSM_PERSONS) W[xmlid] = await s.ensure(x(xmlid), 'fsm.person', { name, phone });
  const L: Record<string, number> = {};
  for (const c of CUSTOMERS) {
    L[c.xmlid] = await s.ensure(x(`location_${c.xmlid.slice('partner_'.length)}`), 'fsm.location', {
      name: c.name,
      owner_id: C[c.xmlid],
      partner_id: C[c.xmlid],
      street: c.street,
      city: c.city,
      zip: c.zip,
      phone: c.phone,
    });
  }
  const stage = (name: string) => s.id(`fieldservice.fsm_stage_${name}`);
  const fso = (xmlid: string, vals: Record<string, unknown>, then?: (id: number) => Promise<unknown>) =>
    s.ensure(x(xmlid), 'fsm.order', vals, then);
  await fso('fso_hartwell_measure', {
    location_id: L.partner_hartwell,
    team_id: measure,
    priority: '1',
    description: 'Measure 4 living-room windows for roller shades.',
  });
  await fso('fso_oakmont_install', {
    location_id: L.partner_oakmont,
    team_id: install,
    person_id: W.person_marcus,
    stage_id: stage('scheduled'),
    sale_id: so.soOakmont,
    scheduled_date_start: day(3, '09:00:00'),
    scheduled_duration: 6,
    description: 'Install 12 wood blinds in exam rooms 1–6.',
  });
  await fso('fso_rivera_install', {
    location_id: L.partner_rivera,
    team_id: install,
    person_id: W.person_dana,
    stage_id: stage('in_progress'),
    sale_id: so.soRivera,
    scheduled_date_start: day(0, '08:00:00'),
    scheduled_duration: 4,
    date_start: day(0, '08:10:00'),
    description: 'Install 5 plantation shutter panels, bay window.',
  });
  await fso(
    'fso_patel_install',
    {
      location_id: L.partner_patel,
      team_id: install,
      person_id: W.person_jamal,
      sale_id: so.soPatel,
      scheduled_date_start: day(-7, '13:00:00'),
      scheduled_duration: 3,
      date_start: day(-7, '13:05:00'),
      date_end: day(-7, '15:40:00'),
      description: 'Install 3 roman shades.',
      resolution: 'Installed 3 roman shades; walkthrough done with the customer.',
    },
    (id) => call(env, 'fsm.order', 'action_complete', [id]),
  );
  await fso(
    'fso_lakeside_install',
    {
      location_id: L.partner_lakeside,
      team_id: install,
      sale_id: so.soLakeside,
      description: 'Install 8 motorized blinds in the lobby.',
    },
    (id) => call(env, 'fsm.order', 'action_cancel', [id]),
  );
}
