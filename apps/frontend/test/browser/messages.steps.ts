/**
 * Steps shared by the customer-message walkthroughs on the real platform with `npm start`'s own
 * stand-ins (localProviders): tenant A texts from the SMS stand-in's line in a zone where it is
 * midday now (quiet hours never hold a test's texts), and the texts the customer's phone received.
 */
import { expect } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import type { RealSession } from './real-session.js';

/** Midday now (Etc/GMT-N is UTC+N), as messages.test-support.ts's: apps do not import each other's tests. */
export const middayZone = (n = (((12 - new Date().getUTCHours()) % 24) + 24) % 24) =>
  n === 0 ? 'Etc/GMT' : n > 12 ? `Etc/GMT+${24 - n}` : `Etc/GMT-${n}`;

export async function tenantATexts(s: RealSession): Promise<void> {
  const { a } = s.p;
  await waitUntil('the SMS stand-in wired to A', async () => {
    const r = await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/integrations`);
    return r.body.sms.lines.length ? true : undefined;
  });
  const zone = await s.p.api(a.owner.token, 'PUT', `/api/tenants/${a.id}/settings`, { time_zone: middayZone() });
  expect(zone.status, JSON.stringify(zone.body)).toBe(200);
}

/** The first text to `contact` (digits, as the stand-in keeps them) saying `words`, once it arrives. */
export async function textTo(s: RealSession, contact: string, words: string): Promise<string> {
  const got = await waitUntil(`a text to ${contact} saying "${words}"`, async () => {
    const r = (await (await fetch(`${s.p.localConsole}/`)).json()) as { sms: { contact: string; body: string }[] };
    return r.sms.find((m) => m.contact === contact && m.body.includes(words));
  });
  return got.body;
}

/**
 * The office books a two-hour visit at 1420 Larimer St for A's technician Terry, from `start`: the
 * customer (a name and a US phone, their email derived) is texted the confirmation. Answers the job id.
 */
export async function officeBooksVisit(s: RealSession, name: string, phone: string, start: Date): Promise<string> {
  const { a } = s.p;
  const job = await s.p.api(a.office.token, 'POST', '/jobs', {
    customer: { name, phone, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` },
    address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
    scheduled_start: start.toISOString(),
    scheduled_end: new Date(start.getTime() + 7_200_000).toISOString(),
    technician_id: a.technician.id,
  });
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  return job.body.id;
}
