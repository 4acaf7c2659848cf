/**
 * The customer's appointment link (docs/portal.md, "Appointment page"): a scheduled job's
 * confirmation text carries /portal/appointment/<token> on the tenant's host; the link is issued once
 * per job (only its SHA-256 stored) and a reschedule keeps it; the page answers the appointment in
 * the company's zone with the technician's first name, the address, the stage and the company's
 * contact, plus an .ics; unknown, expired, revoked and other-tenant tokens are the portal's one 404;
 * a cancelled job says cancelled; a revoked link is replaced at the next reschedule.
 */
import { createHash } from 'node:crypto';

import ical, { type VEvent } from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { textingTenant } from '../messages/messages.test-support.js';
import { LINK_DAYS_AFTER } from './appointment-links.js';

let k: CrmSalesKit;
let technicianId: string;
beforeAll(async () => {
  k = await startCrmSalesKit();
  technicianId = (await k.kit.member(k.a.id, 'technician')).principal.userId;
  await textingTenant(k, k.a);
}, 180_000);
afterAll(async () => k?.close());

const PHONE = '13035550188';
const LINK = /https?:\/\/[^\s]+\/portal\/appointment\/([A-Za-z0-9_-]{43})/;
const texts = async () =>
  (
    await k.kit.t.db.query<{ body: string }>(
      `SELECT body FROM sms_messages WHERE tenant_id = $1 AND contact_number = $2 AND direction = 'outbound'
        ORDER BY created_at, id`,
      [k.a.id, PHONE],
    )
  ).rows.map((r) => r.body);
const links = async (jobId: string) =>
  (
    await k.kit.t.db.query<{ id: string; token_hash: string; expires_at: Date; revoked_at: Date | null }>(
      'SELECT id, token_hash, expires_at, revoked_at FROM appointment_links WHERE job_id = $1 ORDER BY created_at',
      [jobId],
    )
  ).rows;
const page = (token: string, tenantId = k.a.id, suffix = '') =>
  k.kit.app.inject({
    method: 'GET',
    url: `/portal/appointments/${token}${suffix}`,
    headers: { 'x-tenant-id': tenantId },
  });
const linkIn = (body: string) => LINK.exec(body)?.[1];
const hash = (t: string) => createHash('sha256').update(t).digest('hex');
const DAY = 86_400_000;

describe('the appointment link of job messages', () => {
  let jobId: string;
  let token: string;
  let start: Date;

  it('the confirmation text carries the link; one link per job, only its hash stored; a reschedule keeps it', async () => {
    start = new Date(Date.now() + 3 * DAY);
    start.setUTCMinutes(0, 0, 0);
    const job = await k.call('POST', '/jobs', k.a.office, {
      customer: { name: 'Rita Moreno', phone: '303 555 0188', email: 'rita@example.com' },
      address: { street: '9 Elm St', city: 'Denver', zip: '80202' },
      scheduled_start: start.toISOString(),
      scheduled_end: new Date(start.getTime() + 2 * 3_600_000).toISOString(),
      technician_id: technicianId,
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    jobId = job.body.id;
    await k.kit.deps.messages.sender.runDue();
    const [confirmation] = await texts();
    expect(confirmation).toContain('your appointment is booked for');
    token = linkIn(confirmation!)!;
    expect(token).toBeDefined();
    const [row, ...more] = await links(jobId);
    expect(more).toEqual([]);
    expect(row!.token_hash).toBe(hash(token));
    expect(JSON.stringify(row)).not.toContain(token);

    start = new Date(start.getTime() + DAY);
    const end = new Date(start.getTime() + 3 * 3_600_000);
    const moved = await k.call('POST', `/jobs/${jobId}/schedule`, k.a.office, {
      scheduled_start: start.toISOString(),
      scheduled_end: end.toISOString(),
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await k.kit.deps.messages.sender.runDue();
    const sent = await texts();
    expect(sent).toHaveLength(2);
    expect(linkIn(sent[1]!)).toBe(token);
    const after = await links(jobId);
    expect(after).toHaveLength(1);
    // The link lives until some days after the (new) end of the visit.
    expect(after[0]!.expires_at.getTime()).toBe(end.getTime() + LINK_DAYS_AFTER * DAY);
  });

  it("the page answers the appointment in the company's zone, the technician's first name, the address and the stage", async () => {
    const r = await page(token);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const job = (await k.call('GET', `/jobs/${jobId}`, k.a.office)).body;
    const zone = (await k.call('GET', `/api/tenants/${k.a.id}/settings`, k.a.owner)).body.time_zone;
    const date = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long' });
    expect(r.json()).toMatchObject({
      appointment: {
        start: start.toISOString(),
        date: date.format(start),
        window: expect.stringMatching(/^\d\d:\d\d–\d\d:\d\d$/),
        time_zone: zone,
        technician: job.technician.name.split(' ')[0],
        address: '9 Elm St, Denver, 80202',
        stage: 'scheduled',
      },
      company: { name: expect.any(String) },
      link: { expires_at: expect.any(String) },
    });
    expect(r.body).not.toContain('rita@example.com');
    const ics = await page(token, k.a.id, '/appointment.ics');
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    const [e] = Object.values(ical.sync.parseICS(ics.body)).filter((x): x is VEvent => x?.type === 'VEVENT');
    expect(e!.start.toISOString()).toBe(start.toISOString());
    expect(e!.location).toBe('9 Elm St, Denver, 80202');
  });

  it("unknown, expired and another tenant's host are the one 404; a cancelled job says cancelled", async () => {
    const other = await page(token, k.b.id);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'PORTAL_LINK_INVALID' });
    expect((await page(token, k.b.id, '/appointment.ics')).statusCode).toBe(404);
    expect((await page('A'.repeat(43))).statusCode).toBe(404);
    expect((await page('short')).statusCode).toBe(404);
    const cancel = await k.call('POST', `/jobs/${jobId}/stage`, k.a.office, { stage: 'cancelled' });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect((await page(token)).json().appointment.stage).toBe('cancelled');
    await k.kit.t.db.query(`UPDATE appointment_links SET expires_at = now() - interval '1 minute' WHERE job_id = $1`, [
      jobId,
    ]);
    expect((await page(token)).statusCode).toBe(404);
  });

  it('a revoked link is replaced by a new one at the next reschedule', async () => {
    const job = await k.call('POST', '/jobs', k.a.office, {
      customer: { name: 'Rita Moreno', phone: '303 555 0188' },
      address: { street: '9 Elm St', city: 'Denver', zip: '80202' },
      scheduled_start: new Date(start.getTime() + DAY).toISOString(),
      scheduled_end: new Date(start.getTime() + DAY + 3_600_000).toISOString(),
    });
    await k.kit.deps.messages.sender.runDue();
    const first = linkIn((await texts()).at(-1)!)!;
    await k.kit.t.db.query('UPDATE appointment_links SET revoked_at = now() WHERE job_id = $1', [job.body.id]);
    expect((await page(first)).statusCode).toBe(404);
    await k.call('POST', `/jobs/${job.body.id}/schedule`, k.a.office, {
      scheduled_start: new Date(start.getTime() + 2 * DAY).toISOString(),
      scheduled_end: new Date(start.getTime() + 2 * DAY + 3_600_000).toISOString(),
    });
    await k.kit.deps.messages.sender.runDue();
    const second = linkIn((await texts()).at(-1)!)!;
    expect(second).not.toBe(first);
    expect((await page(second)).statusCode).toBe(200);
  });
});
