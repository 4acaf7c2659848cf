/**
 * A job's report as a PDF, read with poppler: the windows with sizes in eighths, the checklist as
 * ticked, the notes, the photos, the technician and times, and the customer's signature on a page of
 * its own. Its technician and the office may fetch it; another technician and another tenant may not.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Principal } from '../auth/principal.js';
import { type JobsKit, startJobsKit, tenantsWithErps } from '../jobs/jobs.test-support.js';
import { imagesByPage, pdfPages } from './pdf-reader.test-support.js';

let kit: JobsKit;
let a: { id: string; token: string };
let b: { id: string; token: string };
let tech: { principal: Principal; token: string };
let otherTech: { token: string };
let job: { id: string; name: string };

const post = (url: string, payload: object, token = tech.token) =>
  kit.app.inject({ method: 'POST', url, headers: kit.auth(token), payload });

/** Uploads `bytes` as the job's file of `kind` the way the field app does, and registers it. */
async function attach(kind: string, contentType: string, bytes: Buffer) {
  const up = (await post(`/jobs/${job.id}/uploads`, { kind, content_type: contentType, bytes: bytes.length })).json();
  await kit.deps.objects.put(up.key, bytes, { contentType });
  expect((await post(`/jobs/${job.id}/attachments`, { key: up.key, kind })).statusCode).toBeLessThan(300);
}

beforeAll(async () => {
  kit = await startJobsKit();
  [a, b] = await tenantsWithErps(kit, 'report-a', 'report-b');
  tech = await kit.member(a.id, 'technician');
  otherTech = await kit.member(a.id, 'technician');
  job = (await kit.createJob(a.token, {
    technician_id: tech.principal.userId,
    windows: [
      {
        room: 'Living room',
        product: 'Roller shade',
        width_in: 46.75,
        drop_in: 60.125,
        mount: 'inside',
        colour: 'Linen',
      },
      { room: 'Study', product: 'Shutter', width_in: 30, drop_in: 52.5, mount: 'outside', colour: 'White' },
    ],
  })) as { id: string; name: string };
  await post(`/jobs/${job.id}/notes`, { body: 'Customer asked for the cords tied up.' });
  await kit.app.inject({
    method: 'PATCH',
    url: `/jobs/${job.id}/checklist/window-1`,
    headers: kit.auth(tech.token),
    payload: { done: true },
  });
  const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#8899aa' } })
    .jpeg()
    .toBuffer();
  await attach('photo_after', 'image/jpeg', photo);
  const ink = await sharp({ create: { width: 400, height: 150, channels: 4, background: '#00000000' } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="400" height="150"><path d="M10 100 C 80 10, 160 140, 390 40" stroke="black" stroke-width="4" fill="none"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
  await attach('signature', 'image/png', ink);
}, 180_000);
afterAll(async () => kit?.close());

const report = (token: string) =>
  kit.app.inject({ method: 'GET', url: `/jobs/${job.id}/report.pdf`, headers: kit.auth(token) });

describe("a job's report PDF", () => {
  it('shows the windows, checklist, notes, photos, technician and the signature on its own page', async () => {
    const r = await report(tech.token);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    const pages = pdfPages(r.rawPayload);
    const text = pages.join('\n');
    expect(text).toContain(`Job report ${job.name}`);
    expect(text).toContain('Dana Whitfield');
    expect(text).toMatch(/Technician: \S+/);
    expect(text).toMatch(/Scheduled: Nov 25, 2026/);
    expect(text).toMatch(/Living room\s+Roller shade\s+46 3\/4 × 60 1\/8\s+inside\s+Linen/);
    expect(text).toMatch(/Study\s+Shutter\s+30 × 52 1\/2\s+outside\s+White/);
    expect(text).toMatch(/Install Living room.*\s+Done/);
    expect(text).toMatch(/Install Study.*\s+Not done/);
    expect(text).toContain('Customer asked for the cords tied up.');
    expect(text).toContain('Photos (1)');
    const last = pages.at(-1)!;
    expect(last).toContain('Customer signature');
    expect(last).toMatch(/Signed by Dana Whitfield on Nov/);
    const images = imagesByPage(r.rawPayload);
    expect(images).toContain(pages.length); // the signature is drawn on the last page
    expect(images.filter((p) => p < pages.length).length).toBeGreaterThanOrEqual(1); // the photo
  });

  it('is given to the office; refused to another technician and to another tenant', async () => {
    expect((await report(a.token)).statusCode).toBe(200);
    expect((await report(otherTech.token)).statusCode).toBe(404);
    expect((await report(b.token)).statusCode).toBe(404);
  });
});
