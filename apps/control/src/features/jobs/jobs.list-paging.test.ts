/** GET /jobs pages in the ERP: one page of the filtered, ordered orders, whatever the tenant's history. */
import type { ErpRecord } from '@platform/erp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, newJob, startJobsKit } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let erpA: Awaited<ReturnType<JobsKit['erpFor']>>;
const ids: string[] = [];
const at = (h: number) => `2026-12-10T${String(h).padStart(2, '0')}:00:00Z`;

beforeAll(async () => {
  kit = await startJobsKit();
  a = await kit.tenant('paging-a', 'professional');
  erpA = await kit.erpFor(a.id);
  for (const h of [8, 9, 10, 11, 12]) {
    const r = await kit.app.inject({
      method: 'POST',
      url: '/jobs',
      headers: kit.auth(a.token),
      payload: newJob({ scheduled_start: at(h), scheduled_end: at(h + 1) }),
    });
    ids.push(r.json().id);
  }
  // An order the office made in the ERP itself, on the same day: not a platform job.
  const [made] = await erpA.erp.searchRead('fsm.order', [], { fields: ['location_id', 'team_id'], limit: 1 });
  await erpA.erp.create('fsm.order', {
    location_id: (made!.location_id as [number, string])[0],
    team_id: (made!.team_id as [number, string])[0],
    scheduled_date_start: '2026-12-10 07:00:00',
  });
}, 120_000);
afterAll(async () => kit?.close());

const list = async (query: string) =>
  (await kit.app.inject({ url: `/jobs?${query}`, headers: kit.auth(a.token) })).json() as {
    items: { id: string; customer: Record<string, unknown> | null; address: Record<string, unknown> }[];
    total: number;
  };
const one = async (id: string) => (await kit.app.inject({ url: `/jobs/${id}`, headers: kit.auth(a.token) })).json();

/** Counts the ERP calls of `fn` by model. */
async function erpCalls(fn: () => Promise<unknown>): Promise<string[]> {
  const models: string[] = [];
  const real = { searchRead: erpA.erp.searchRead.bind(erpA.erp), read: erpA.erp.read.bind(erpA.erp) };
  const spies = [
    vi.spyOn(erpA.erp, 'searchRead').mockImplementation(async (model, domain, opts) => {
      models.push(`search_read ${model}`);
      return real.searchRead(model, domain, opts) as Promise<ErpRecord[]>;
    }),
    vi.spyOn(erpA.erp, 'read').mockImplementation(async (model, ids, fields) => {
      models.push(`read ${model}`);
      return real.read(model, ids, fields);
    }),
  ];
  try {
    await fn();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return models;
}

describe('the job list, paged in the ERP', () => {
  it("answers page 2 with the day's third and fourth jobs and counts only the platform's jobs", async () => {
    // Page 1 holds them all (no count needed); page 2 of 2 has more after it (the ERP counts them).
    expect((await list('date=2026-12-10')).items.map((j) => j.id)).toEqual(ids);
    const page = await list('date=2026-12-10&page=2&page_size=2');
    expect(page.items.map((j) => j.id)).toEqual(ids.slice(2, 4));
    expect(page.total).toBe(5);
    expect((await list('date=2026-12-10&page=3&page_size=2')).items.map((j) => j.id)).toEqual(ids.slice(4));
  });

  it('asks the ERP for that page only: no filter by every job id, the offset, the page size and one row more', async () => {
    const calls: { domain: unknown[]; opts: { limit?: number; offset?: number } | undefined }[] = [];
    const models: string[] = [];
    const real = { searchRead: erpA.erp.searchRead.bind(erpA.erp), read: erpA.erp.read.bind(erpA.erp) };
    const spies = [
      vi.spyOn(erpA.erp, 'searchRead').mockImplementation(async (model, domain, opts) => {
        models.push(model);
        if (model === 'fsm.order') calls.push({ domain, opts });
        return real.searchRead(model, domain, opts) as Promise<ErpRecord[]>;
      }),
      vi.spyOn(erpA.erp, 'read').mockImplementation(async (model, ids, fields) => {
        models.push(model);
        return real.read(model, ids, fields);
      }),
    ];
    try {
      await list('date=2026-12-10&page=2&page_size=2');
    } finally {
      for (const s of spies) s.mockRestore();
    }
    // One call: the orders with their location's address and phone; the stages stay cached per ERP client.
    expect(models).toEqual(['fsm.order']);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.opts).toMatchObject({ limit: 3, offset: 2 });
    expect(calls[0]!.domain.filter((leaf) => Array.isArray(leaf) && leaf[0] === 'id')).toEqual([]);
  });

  it("shows each row's customer name and phone and the address from that one call; id and email come with the job", async () => {
    const page = await list('date=2026-12-10&page_size=1');
    expect(page.items[0]!.customer).toEqual({ name: 'Dana Whitfield', phone: '+1 303 555 0142' });
    expect(page.items[0]!.address).toMatchObject({ street: '1420 Larimer St', city: 'Denver', zip: '80202' });
    const job = await one(ids[0]!);
    expect(job.customer).toEqual({
      id: expect.any(Number),
      name: 'Dana Whitfield',
      phone: '+1 303 555 0142',
      email: 'dana@example.com',
    });
  });

  it("names a job for an existing customer after them, and leaves the customer's name as it was", async () => {
    const partner = await erpA.erp.create('res.partner', { name: 'Noor Haddad', mobile: '+1 720 555 0177' });
    const r = await kit.app.inject({
      method: 'POST',
      url: '/jobs',
      headers: kit.auth(a.token),
      payload: newJob({
        customer: undefined,
        partner_id: partner,
        scheduled_start: '2026-12-11T09:00:00Z',
        scheduled_end: '2026-12-11T10:00:00Z',
      }),
    });
    expect(r.statusCode).toBe(201);
    const row = (await list('date=2026-12-11')).items.find((j) => j.id === r.json().id)!;
    expect(row.customer).toEqual({ name: 'Noor Haddad', phone: '+1 720 555 0177' });
    expect((await erpA.erp.read('res.partner', [partner], ['name']))[0]!.name).toBe('Noor Haddad');
  });

  it("shows on each row the job's own windows, notes, ticks, photos, signature and technician, as the job does", async () => {
    const tech = await kit.member(a.id, 'technician');
    const day = (h: number) => `2026-12-12T${h}:00:00Z`;
    const window = { room: 'Den', product: 'Cellular shade', width_in: 24.25, drop_in: 48, mount: 'outside' };
    const made: { id: string; technician: unknown }[] = [];
    for (const [i, h] of [10, 11].entries()) {
      const body = newJob({ scheduled_start: day(h), scheduled_end: day(h + 1), technician_id: tech.principal.userId });
      if (i === 1) body.windows = [...body.windows, { ...window, colour: 'Snow' }];
      const r = await kit.app.inject({ method: 'POST', url: '/jobs', headers: kit.auth(a.token), payload: body });
      made.push(r.json());
    }
    expect(made.map((m) => m.technician)).toEqual([
      expect.objectContaining({ id: tech.principal.userId }),
      expect.anything(),
    ]);
    const [first, second] = made as [(typeof made)[number], (typeof made)[number]];
    const send = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      kit.app.inject({ method, url, headers: kit.auth(tech.token), payload });
    for (const r of [
      await send('POST', `/jobs/${second.id}/notes`, { body: 'Dog in the yard' }),
      await send('POST', `/jobs/${second.id}/notes`, { body: 'Use the side gate' }),
      await send('PATCH', `/jobs/${second.id}/checklist/window-2`, { done: true }),
    ])
      expect(r.statusCode, r.body).toBeLessThan(300);
    await kit.t.db.query(
      `INSERT INTO job_attachments (tenant_id, job_id, key, kind, bytes, created_by)
       VALUES ($1, $2, $3, 'photo_after', 10, $4), ($1, $2, $5, 'signature', 10, $4)`,
      [
        a.id,
        second.id,
        `${a.id}/jobs/${second.id}/after.jpg`,
        tech.principal.userId,
        `${a.id}/jobs/${second.id}/sig.png`,
      ],
    );
    const rows = (await list('date=2026-12-12')).items;
    expect(rows.map((r) => r.id)).toEqual([first.id, second.id]);
    for (const row of rows) {
      const job = await one(row.id);
      expect(row).toEqual({ ...job, customer: { name: job.customer.name, phone: job.customer.phone } });
    }
    const listed = rows[1] as unknown as Record<string, unknown>;
    expect(listed).toMatchObject({
      technician: { id: tech.principal.userId },
      windows: [{ room: 'Living room' }, { ...window, colour: 'Snow' }],
      notes: [{ body: 'Dog in the yard' }, { body: 'Use the side gate' }],
      photos: [{ kind: 'photo_after' }],
      signature: { key: `${a.id}/jobs/${second.id}/sig.png` },
    });
    expect((listed.checklist as { id: string; done: boolean }[]).filter((c) => c.done).map((c) => c.id)).toEqual([
      'window-2',
    ]);
  });

  it('reads the customer only for a job made when its location was named by its address', async () => {
    // As createOrder named locations before: "street, city", and no phone of its own.
    const [order] = await erpA.erp.searchRead('fsm.order', [['scheduled_date_start', '=', '2026-12-10 09:00:00']], {
      fields: ['location_id'],
    });
    const locationId = (order!.location_id as [number, string])[0];
    await erpA.erp.write('fsm.location', [locationId], { name: '1420 Larimer St, Denver', phone: false });
    try {
      let page: Awaited<ReturnType<typeof list>> | undefined;
      const calls = await erpCalls(async () => (page = await list('date=2026-12-10&page_size=3')));
      expect(calls).toEqual(['search_read fsm.order', 'read fsm.location', 'read res.partner']);
      const dana = { name: 'Dana Whitfield', phone: '+1 303 555 0142' };
      expect(page!.items.map((j) => j.customer)).toEqual([dana, dana, dana]);
      expect(await erpCalls(() => list('date=2026-12-10&page=2&page_size=3'))).toEqual(['search_read fsm.order']);
    } finally {
      await erpA.erp.write('fsm.location', [locationId], { name: 'Dana Whitfield', phone: '+1 303 555 0142' });
    }
  });
});
