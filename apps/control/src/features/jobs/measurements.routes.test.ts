/**
 * The measuring visit over HTTP (PGlite, and PostgreSQL with TEST_DATABASE_URL): a measure job's
 * windows priced or flagged from the grids, "Send to office" making ONE draft quote however often it
 * is sent, brought up to date while a draft and refused once sent, and nothing of it reachable from
 * another tenant or another technician.
 */
import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, newJob, startJobsKit, tenantsWithErps } from './jobs.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string; owner: Principal };
let b: { id: string; token: string; owner: Principal };
let measurer: { principal: Principal; token: string };
let otherTech: { principal: Principal; token: string };
let jobId: string;

const window = (over: Record<string, unknown> = {}) => ({
  room: 'Kitchen',
  product_code: 'roller-shade',
  width_in: 35.5,
  drop_in: 47.125,
  mount: 'inside',
  colour: 'Linen',
  options: ['blackout-lining'],
  notes: 'Handle on the left',
  ...over,
});

const call = async (token: string, method: string, url: string, payload?: unknown) => {
  const r = await kit.app.inject({
    method: method as 'GET',
    url,
    headers: kit.auth(token),
    ...(payload ? { payload: payload as object } : {}),
  });
  return { status: r.statusCode, body: r.body ? r.json() : undefined };
};

beforeAll(async () => {
  kit = await startJobsKit();
  [a, b] = await tenantsWithErps(kit, 'measure-a', 'measure-b');
  measurer = await kit.member(a.id, 'technician');
  otherTech = await kit.member(a.id, 'technician');
  const made = await call(
    a.token,
    'POST',
    '/jobs',
    newJob({ kind: 'measure', windows: [], technician_id: measurer.principal.userId }),
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.kind).toBe('measure');
  jobId = made.body.id;
  await call(a.token, 'POST', '/jobs', newJob());
}, 180_000);
afterAll(async () => kit?.close());

describe('job kinds', () => {
  it('answers the kind on a job and filters the list by it; a job made without one is an install', async () => {
    const measure = await call(a.token, 'GET', '/jobs?kind=measure');
    expect(measure.body.items.map((j: { id: string }) => j.id)).toEqual([jobId]);
    const installs = await call(a.token, 'GET', '/jobs?kind=install');
    expect(installs.body.items.length).toBe(1);
    expect(installs.body.items[0].kind).toBe('install');
    expect((await call(a.token, 'GET', '/jobs?kind=service')).body.items).toEqual([]);
    expect((await call(a.token, 'GET', '/jobs?kind=fitting')).status).toBe(422);
    // In the ERP the kind heads the order's Instructions (fsm.order has no kind field of its own).
    const erp = await kit.deps.erps.forTenant(a.id);
    const [order] = await erp.searchRead('fsm.order', [['name', '=', measure.body.items[0].name]], {
      fields: ['todo'],
    });
    expect(String(order!.todo)).toContain('Measure visit');
  });
});

describe('measuring and sending to the office', () => {
  const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  it('prices each window from the grids and flags one over the product limits, naming them', async () => {
    const put = (i: number, over: Record<string, unknown> = {}) =>
      call(measurer.token, 'PUT', `/jobs/${jobId}/measurements/${ids[i]}`, window(over));
    const first = await put(0);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // 36-in band, 48-in band of the default roller shade (89 + 18 + 12) plus blackout lining (45).
    expect(first.body).toMatchObject({ id: ids[0], position: 1, unit_price: 164, flags: [] });
    expect((await put(1, { room: 'Bedroom', options: [] })).body.unit_price).toBe(119);
    expect((await put(2, { room: 'Study', product_code: 'cellular-shade', options: [] })).status).toBe(200);
    const wide = await put(3, { room: 'Lounge', width_in: 130, options: [] });
    expect(wide.body.unit_price).toBeNull();
    expect(wide.body.flags).toEqual([
      expect.objectContaining({ field: 'width_in', rule: 'product_limits', message: expect.stringContaining('96"') }),
    ]);
    // The same window sent again (a lost answer) is the same window.
    expect((await put(0)).body.position).toBe(1);
    const list = await call(measurer.token, 'GET', `/jobs/${jobId}/measurements`);
    expect(list.body.items).toHaveLength(4);
    expect(list.body.grids.map((g: { product_code: string }) => g.product_code)).toContain('roller-shade');
  });

  it('refuses a product or option the tenant does not sell and a size finer than 1/8 inch, naming the field', async () => {
    const bad = (over: Record<string, unknown>) =>
      call(measurer.token, 'PUT', `/jobs/${jobId}/measurements/${randomUUID()}`, window(over));
    const product = await bad({ product_code: 'velvet-drape' });
    expect(product.status).toBe(422);
    expect(product.body.errors[0]).toMatchObject({ field: 'product_code', rule: 'unknown_product' });
    expect((await bad({ options: ['gold-trim'] })).body.errors[0]).toMatchObject({ field: 'options.0' });
    expect((await bad({ width_in: 30.1 })).body.errors[0]).toMatchObject({ field: 'width_in', rule: 'eighth_inch' });
  });

  it('makes one draft quote however often it is sent: three priced lines and the wide window flagged', async () => {
    const first = await call(measurer.token, 'POST', `/jobs/${jobId}/measurements/quote`);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ priced: 3, flagged: 1, updated: false });
    const [again, racing] = await Promise.all([
      call(measurer.token, 'POST', `/jobs/${jobId}/measurements/quote`),
      call(a.token, 'POST', `/jobs/${jobId}/measurements/quote`),
    ]);
    expect([again.body.quote_id, racing.body.quote_id]).toEqual([first.body.quote_id, first.body.quote_id]);
    const quotes = await call(a.token, 'GET', '/sales/quotes');
    expect(quotes.body.items).toHaveLength(1);
    const q = await call(a.token, 'GET', `/sales/quotes/${first.body.quote_id}`);
    expect(q.body.state).toBe('draft');
    expect(q.body.lines.map((l: { measurement_id: string }) => l.measurement_id)).toEqual(ids.slice(0, 3));
    expect(q.body.lines[0]).toMatchObject({ unit_price: 164, width_in: 35.5, mount: 'inside' });
    expect(q.body.lines[0].description).toContain('35 1/2" W × 47 1/8" H, inside mount, Linen');
    expect(q.body.flagged).toEqual([expect.objectContaining({ measurement_id: ids[3], width_in: 130 })]);
    expect(q.body.measure_job_id).toBe(jobId);
    // The ERP's users see the flagged window on the order's note.
    const erp = await kit.deps.erps.forTenant(a.id);
    const [order] = await erp.read('sale.order', [q.body.sale_order_id], ['note']);
    expect(String(order!.note)).toContain('Lounge: roller-shade, 130" W × 47 1/8" H');
    expect((await call(a.token, 'GET', `/jobs/${jobId}`)).body.quote_id).toBe(first.body.quote_id);
  });

  it('brings the same draft up to date on a later send, then refuses with 409 once the office sent it', async () => {
    await call(measurer.token, 'DELETE', `/jobs/${jobId}/measurements/${ids[1]}`);
    expect((await call(measurer.token, 'DELETE', `/jobs/${jobId}/measurements/${ids[1]}`)).status).toBe(200);
    const later = await call(measurer.token, 'POST', `/jobs/${jobId}/measurements/quote`);
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ updated: true, priced: 2, flagged: 1 });
    const q = await call(a.token, 'GET', `/sales/quotes/${later.body.quote_id}`);
    expect(q.body.lines).toHaveLength(2);
    await kit.t.db.query('UPDATE users SET email_verified_at = now() WHERE email_verified_at IS NULL');
    const sent = await call(a.token, 'POST', `/sales/quotes/${later.body.quote_id}/send`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const refused = await call(measurer.token, 'POST', `/jobs/${jobId}/measurements/quote`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'MEASURE_QUOTE_SENT', quote_id: later.body.quote_id, state: 'sent' });
  });

  it("keeps a window's photo on the job with the window's id, and refuses another job's window id", async () => {
    const up = await call(measurer.token, 'POST', `/jobs/${jobId}/uploads`, {
      kind: 'photo_before',
      content_type: 'image/jpeg',
      bytes: 1024,
    });
    expect(up.status).toBe(201);
    const put = await fetch(up.body.upload_url, {
      method: 'PUT',
      body: Buffer.alloc(1024, 3),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(put.ok).toBe(true);
    const stranger = await call(measurer.token, 'POST', `/jobs/${jobId}/attachments`, {
      key: up.body.key,
      kind: 'photo_before',
      measurement_id: randomUUID(),
    });
    expect(stranger.status).toBe(422);
    expect(stranger.body.errors[0]).toMatchObject({ field: 'measurement_id', rule: 'not_this_job' });
    const attached = await call(measurer.token, 'POST', `/jobs/${jobId}/attachments`, {
      key: up.body.key,
      kind: 'photo_before',
      measurement_id: ids[0],
    });
    expect(attached.status, JSON.stringify(attached.body)).toBe(201);
    expect(attached.body.photos).toEqual([expect.objectContaining({ key: up.body.key, measurement_id: ids[0] })]);
  });

  it('makes one quote when two first sends race (two phones, or the office and the measurer)', async () => {
    const other = await call(a.token, 'POST', '/jobs', newJob({ kind: 'measure', windows: [] }));
    const id = other.body.id as string;
    await call(a.token, 'PUT', `/jobs/${id}/measurements/${randomUUID()}`, window({ options: [] }));
    const sends = await Promise.all([1, 2, 3].map(() => call(a.token, 'POST', `/jobs/${id}/measurements/quote`)));
    expect(sends.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(sends.map((r) => r.body.quote_id)).size).toBe(1);
    const q = await call(a.token, 'GET', `/sales/quotes/${sends[0]!.body.quote_id}`);
    expect(q.body.lines).toHaveLength(1);
    const ofJob = (await call(a.token, 'GET', '/sales/quotes')).body.items.filter(
      (x: { measure_job_id?: string }) => x.measure_job_id === id,
    );
    expect(ofJob).toHaveLength(1);
  });

  it('refuses measuring on a job that is not a measure job', async () => {
    const install = (await call(a.token, 'GET', '/jobs?kind=install')).body.items[0].id;
    const r = await call(a.token, 'PUT', `/jobs/${install}/measurements/${randomUUID()}`, window());
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'JOB_NOT_MEASURE', kind: 'install' });
  });

  it("answers 404 to another tenant and to another technician, and changes nothing of A's", async () => {
    const before = await call(a.token, 'GET', `/jobs/${jobId}/measurements`);
    for (const token of [b.token, otherTech.token]) {
      expect((await call(token, 'GET', `/jobs/${jobId}/measurements`)).status).toBe(404);
      expect((await call(token, 'PUT', `/jobs/${jobId}/measurements/${ids[0]}`, window({ room: 'X' }))).status).toBe(
        404,
      );
      expect((await call(token, 'DELETE', `/jobs/${jobId}/measurements/${ids[0]}`)).status).toBe(404);
      expect((await call(token, 'POST', `/jobs/${jobId}/measurements/quote`)).status).toBe(404);
    }
    expect((await call(a.token, 'GET', `/jobs/${jobId}/measurements`)).body).toEqual(before.body);
  });
});
