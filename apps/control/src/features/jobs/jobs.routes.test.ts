/** /jobs against a real embedded ERP served over JSON-RPC, each tenant in its own ERP database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, newJob, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let erpA: Awaited<ReturnType<JobsKit['erpFor']>>;
let office: { principal: Principal; token: string };
let tech: { principal: Principal; token: string };

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('jobs-a', 'professional');
  erpA = await kit.erpFor(a.id);
  office = await kit.member(a.id, 'office');
  tech = await kit.member(a.id, 'technician');
}, 120_000);
afterAll(async () => kit?.close());

const post = (url: string, token: string, payload: unknown, headers: Record<string, string> = {}) =>
  kit.app.inject({ method: 'POST', url, headers: kit.auth(token, headers), payload: payload as object });
const get = (url: string, token: string) => kit.app.inject({ url, headers: kit.auth(token) });

describe('jobs', () => {
  it("creates the job as a field service order in the tenant's ERP and lists it on its day", async () => {
    const r = await post('/jobs', office.token, newJob());
    expect(r.statusCode).toBe(201);
    const job = r.json();
    expect(job).toMatchObject({
      customer: { name: 'Dana Whitfield', phone: '+1 303 555 0142', email: 'dana@example.com' },
      address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
      scheduled_start: '2026-11-25T15:00:00Z',
      scheduled_end: '2026-11-25T17:00:00Z',
      stage: { key: 'scheduled', name: 'Scheduled' },
      technician: null,
      windows: [{ room: 'Living room', product: 'Roller shade', width_in: 35.5, drop_in: 60.125, mount: 'inside' }],
      signature: null,
    });
    expect(job.address.maps_url).toContain('1420%20Larimer%20St');
    expect(job.checklist.map((c: { id: string }) => c.id)).toEqual(['confirm', 'window-1', 'test', 'cleanup']);
    const [order] = await erpA.erp.searchRead('fsm.order', [['name', '=', job.name]], {
      fields: ['todo', 'location_id'],
    });
    expect(String(order!.todo)).toContain('Roller shade');
    const day = await get('/jobs?date=2026-11-25', office.token);
    expect(day.json().items.map((j: { id: string }) => j.id)).toContain(job.id);
    expect((await get('/jobs?date=2026-11-26', office.token)).json().total).toBe(0);
  });

  it("lists each technician's jobs by scheduled start then route order, and a technician only their own", async () => {
    const at = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`;
    const mk = async (h: number, who?: string) =>
      (
        await post(
          '/jobs',
          office.token,
          newJob({ scheduled_start: at(h), scheduled_end: at(h + 1), ...(who ? { technician_id: who } : {}) }),
        )
      ).json();
    const late = await mk(14, tech.principal.userId);
    const early = await mk(9, tech.principal.userId);
    const tie = await mk(9, tech.principal.userId);
    const other = await mk(10);
    await post(`/jobs/${early.id}/schedule`, office.token, {
      scheduled_start: at(9),
      scheduled_end: at(10),
      route_order: 2,
    });
    await post(`/jobs/${tie.id}/schedule`, office.token, {
      scheduled_start: at(9),
      scheduled_end: at(10),
      route_order: 1,
    });
    const all = (await get('/jobs?date=2026-12-01', office.token)).json();
    expect(all.items.map((j: { id: string }) => j.id)).toEqual([tie.id, early.id, late.id, other.id]);
    const mine = (await get('/jobs?date=2026-12-01', tech.token)).json();
    expect(mine.items.map((j: { id: string }) => j.id)).toEqual([tie.id, early.id, late.id]);
    expect(mine.items[0].technician).toEqual({ id: tech.principal.userId, name: tech.principal.email });
    expect((await get(`/jobs/${other.id}`, tech.token)).statusCode).toBe(404);
    const page2 = (await get('/jobs?date=2026-12-01&page=2&page_size=3', office.token)).json();
    expect(page2).toMatchObject({ total: 4, page: 2, page_size: 3, items: [{ id: other.id }] });
    const byTech = (
      await get(`/jobs?from=2026-12-01&to=2026-12-01&technician_id=${tech.principal.userId}`, office.token)
    ).json();
    expect(byTech.total).toBe(3);
  });

  it('assigns to a technician, mapping them to one ERP field service worker made on first assignment', async () => {
    const job = (await post('/jobs', office.token, newJob())).json();
    const r = await post(`/jobs/${job.id}/assign`, office.token, { technician_id: tech.principal.userId });
    expect(r.statusCode).toBe(200);
    expect(r.json().technician).toEqual({ id: tech.principal.userId, name: tech.principal.email });
    const people = await erpA.erp.searchRead('fsm.person', [['email', '=', tech.principal.email]], {
      fields: ['name'],
    });
    expect(people).toHaveLength(1);
    const notTech = await post(`/jobs/${job.id}/assign`, office.token, { technician_id: office.principal.userId });
    expect(notTech.statusCode).toBe(422);
    expect(notTech.json().errors[0]).toMatchObject({ field: 'technician_id', rule: 'not_a_technician' });
  });

  it('moves stages as documented, and completes only with a resolution into the ERP done stage', async () => {
    const job = (await post('/jobs', office.token, newJob({ technician_id: tech.principal.userId }))).json();
    const move = (stage: string, token = tech.token) => post(`/jobs/${job.id}/stage`, token, { stage });
    expect((await move('travel')).json().stage.key).toBe('travel');
    expect((await move('on_site')).json().stage).toMatchObject({ key: 'on_site', name: 'In Progress' });
    const done = await move('done');
    expect(done.statusCode).toBe(409);
    expect(done.json()).toMatchObject({ code: 'JOB_TRANSITION_INVALID', from: 'on_site', to: 'done' });
    expect((await move('cancelled')).statusCode).toBe(403);
    const c = await post(`/jobs/${job.id}/complete`, tech.token, { resolution: 'Three shades fitted and tested.' });
    expect(c.statusCode).toBe(200);
    expect(c.json()).toMatchObject({
      stage: { key: 'done', name: 'Completed' },
      resolution: 'Three shades fitted and tested.',
    });
    const [order] = await erpA.erp.searchRead('fsm.order', [['name', '=', job.name]], {
      fields: ['stage_id', 'resolution', 'is_closed', 'date_end'],
    });
    expect(order).toMatchObject({ resolution: 'Three shades fitted and tested.', is_closed: true });
    expect(order!.date_end).toBeTruthy();
    expect((await post(`/jobs/${job.id}/complete`, tech.token, { resolution: 'again' })).statusCode).toBe(409);
    expect((await move('travel')).json().code).toBe('JOB_TRANSITION_INVALID');
  });

  it('refuses a change against a stale version with JOB_CONFLICT and the current job, applying nothing', async () => {
    const job = (await post('/jobs', office.token, newJob({ technician_id: tech.principal.userId }))).json();
    await new Promise((r) => setTimeout(r, 1100)); // write_date has one-second resolution
    const moved = (
      await post(`/jobs/${job.id}/stage`, office.token, { stage: 'travel' }, { 'if-match': `"${job.version}"` })
    ).json();
    expect(moved.version).not.toBe(job.version);
    const stale = await post(`/jobs/${job.id}/stage`, tech.token, { stage: 'on_site' }, { 'if-match': job.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'JOB_CONFLICT',
      current: { id: job.id, stage: { key: 'travel' }, version: moved.version },
    });
    const note = await post(
      `/jobs/${job.id}/notes`,
      tech.token,
      { body: 'Gate code 4411' },
      { 'if-match': job.version },
    );
    expect(note.statusCode).toBe(409);
    expect((await get(`/jobs/${job.id}`, office.token)).json()).toMatchObject({ stage: { key: 'travel' }, notes: [] });
  });

  it('applies a request once per Idempotency-Key and answers a repeat as it answered the first', async () => {
    const key = { 'idempotency-key': 'create-once-1' };
    const first = await post(
      '/jobs',
      office.token,
      newJob({ scheduled_start: '2027-01-04T15:00:00Z', scheduled_end: '2027-01-04T16:00:00Z' }),
      key,
    );
    const again = await post(
      '/jobs',
      office.token,
      newJob({ scheduled_start: '2027-01-04T15:00:00Z', scheduled_end: '2027-01-04T16:00:00Z' }),
      key,
    );
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await get('/jobs?date=2027-01-04', office.token)).json().total).toBe(1);
    const other = await post('/jobs', office.token, newJob(), key);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const note = { 'idempotency-key': 'note-once-1' };
    await post(`/jobs/${first.json().id}/notes`, office.token, { body: 'Bring the long ladder' }, note);
    const n2 = await post(`/jobs/${first.json().id}/notes`, office.token, { body: 'Bring the long ladder' }, note);
    expect(n2.json().notes).toHaveLength(1);
    const audit = await kit.t.db.query(
      `SELECT action FROM audit_log WHERE tenant_id = $1 AND detail->>'idempotency_key' IN ('create-once-1', 'note-once-1')`,
      [a.id],
    );
    expect(audit.rows.map((r) => r.action).sort()).toEqual(['job.create', 'job.note']);
  });

  it('ticks the checklist and keeps notes with their author', async () => {
    const job = (await post('/jobs', office.token, newJob({ technician_id: tech.principal.userId }))).json();
    const r = await kit.app.inject({
      method: 'PATCH',
      url: `/jobs/${job.id}/checklist/window-1`,
      headers: kit.auth(tech.token),
      payload: { done: true },
    });
    expect(r.json().checklist.find((c: { id: string }) => c.id === 'window-1').done).toBe(true);
    const unknown = await kit.app.inject({
      method: 'PATCH',
      url: `/jobs/${job.id}/checklist/window-9`,
      headers: kit.auth(tech.token),
      payload: { done: true },
    });
    expect(unknown.statusCode).toBe(404);
    const n = (
      await post(`/jobs/${job.id}/notes`, tech.token, { body: 'Customer wants the chain on the left' })
    ).json();
    expect(n.notes[0]).toMatchObject({
      body: 'Customer wants the chain on the left',
      author: { id: tech.principal.userId },
    });
  });

  it('refuses bad input naming the field and the rule, and creates nothing', async () => {
    const r = await post(
      '/jobs',
      office.token,
      newJob({
        customer: undefined,
        windows: [{ room: 'Den', product: 'Shutter', width_in: 30.1, drop_in: 40, mount: 'sideways' }],
      }),
    );
    expect(r.statusCode).toBe(422);
    const rules = r.json().errors.map((e: { field: string; rule: string }) => `${e.field}:${e.rule}`);
    expect(rules).toEqual(expect.arrayContaining(['windows.0.width_in:eighth_inch', 'windows.0.mount:enum']));
    const neither = await post('/jobs', office.token, newJob({ customer: undefined }));
    expect(neither.json().errors).toEqual([expect.objectContaining({ field: 'customer', rule: 'one_of' })]);
    const s = await post(`/jobs/not-a-uuid/stage`, office.token, { stage: 'travel' });
    expect(s.json().errors[0]).toMatchObject({ field: 'id', rule: 'format' });
    const k = await post('/jobs', office.token, newJob(), { 'idempotency-key': 'bad key with spaces' });
    expect(k.json().code).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it("refuses a Free tenant's 21st job of the month with PLAN_LIMIT_REACHED, and a technician's create", async () => {
    const free = await kit.tenant('jobs-free', 'free');
    await kit.erpFor(free.id);
    await kit.t.db.transaction(async (tx) => {
      for (let i = 0; i < 20; i++) await kit.deps.plans.reserveJob(tx, free.id, kit.deps.clock.now());
    });
    const r = await post('/jobs', free.token, newJob(), { 'idempotency-key': 'twenty-first' });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: 'jobs_per_month' });
    expect((await get('/jobs', free.token)).json().total).toBe(0);
    const t = await kit.member(free.id, 'technician');
    expect((await post('/jobs', t.token, newJob())).json().code).toBe('ROLE_FORBIDDEN');
  });
});
