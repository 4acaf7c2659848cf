/**
 * The customer's appointment (the link in the job's texts and emails, docs/frontend.md "The
 * appointment page"): phone first, the date and arrival window in the company's zone, who comes,
 * where, where the visit stands, how to change it, and "Add to calendar". Server-rendered, no script.
 */
import type { AppointmentStage, PortalAppointmentAnswer } from '@platform/contracts/appointment.js';

import type { Branding } from '../tenancy/branding.service.js';
import { esc } from './html.js';
import { page } from './layout.view.js';

export type PortalAppointment = PortalAppointmentAnswer;

const STATUS: Record<AppointmentStage, (tech: string) => string> = {
  scheduled: () => 'Your appointment is booked.',
  on_the_way: (tech) => `${tech} is on the way to you.`,
  done: () => 'This visit is done: thank you!',
  cancelled: () => 'This appointment is cancelled.',
};

/** The zone as a clock on the wall names it at that instant: "MST", "GMT+1" (the IANA id if unknown). */
function zoneWords(tz: string, at: string): string {
  try {
    const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'short' });
    return f.formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')?.value ?? tz;
  } catch {
    return tz;
  }
}

function contactLine(c: PortalAppointment['company']): string {
  const ways = [
    c.phone ? `call <a href="tel:${esc(c.phone.replace(/[^+\d]/g, ''))}">${esc(c.phone)}</a>` : '',
    c.email ? `email <a href="mailto:${esc(c.email)}">${esc(c.email)}</a>` : '',
  ].filter(Boolean);
  return ways.length ? `Please ${ways.join(' or ')}.` : 'Please contact us.';
}

export function appointmentPage(branding: Branding, a: PortalAppointment, token: string): string {
  const x = a.appointment;
  const tech = x.technician ?? 'Our fitter';
  const cancelled = x.stage === 'cancelled';
  const open = x.stage === 'scheduled' || x.stage === 'on_the_way';
  const ics = `/api/control/portal/appointments/${encodeURIComponent(token)}/appointment.ics`;
  const body = `<h1>Your appointment with ${esc(a.company.name)}</h1>
<p class="${cancelled ? 'err' : 'ok'}" role="status" id="appointment-status">${esc(STATUS[x.stage](tech))}</p>
<section class="card" aria-labelledby="when-h"><h2 id="when-h" class="visually-hidden">When and where</h2>
<dl class="appointment">
<div><dt class="muted">Date</dt><dd id="appointment-date">${esc(x.date)}</dd></div>
<div><dt class="muted">Arrival window</dt><dd id="appointment-window">${esc(x.window)} <span class="muted">(${esc(zoneWords(x.time_zone, x.start))})</span></dd></div>
<div><dt class="muted">Technician</dt><dd id="appointment-technician">${esc(x.technician ?? 'to be confirmed')}</dd></div>
<div><dt class="muted">Address</dt><dd id="appointment-address">${esc(x.address || '—')}</dd></div>
</dl>
${open ? `<p><a class="btn" id="add-to-calendar" href="${esc(ics)}" download="appointment.ics">Add to calendar</a></p>` : ''}
</section>
<section class="card" aria-labelledby="change-h"><h2 id="change-h">${cancelled ? 'Questions?' : 'Need to change it?'}</h2>
<p id="appointment-contact">${contactLine(a.company)}</p></section>`;
  return page({ branding, title: 'Your appointment', body, css: CSS });
}

// Label above value on a phone; side by side once there is room.
const CSS = `.appointment{margin:0;display:grid;gap:.75rem}.appointment div{display:grid;gap:.1rem}
.appointment dd{margin:0;font-size:1.1rem;font-weight:600}#change-h{margin-top:0}
@media (min-width:40rem){.appointment{grid-template-columns:repeat(2,minmax(0,1fr))}}`;
