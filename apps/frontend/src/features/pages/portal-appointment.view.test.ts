/**
 * The appointment page as the server draws it: each stage says where the visit stands in words,
 * "Add to calendar" only while the visit is ahead, the zone named as a clock names it, the company's
 * ways to change it, and every value escaped.
 */
import { describe, expect, it } from 'vitest';

import type { Branding } from '../tenancy/branding.service.js';
import { appointmentPage, type PortalAppointment } from './portal-appointment.view.js';

const branding: Branding = {
  ...{ name: 'Acme Blinds', logoUrl: null, faviconUrl: null, primary: '#1f4e79', secondary: '#f4f6f8' },
  ...{ phone: null, email: null, address: null, helpdeskEnabled: true, portalEnabled: true, currency: 'USD' },
};
const answer = (over: Partial<PortalAppointment['appointment']> = {}, phone: string | null = '303-555-0100') => ({
  appointment: {
    start: '2026-12-01T17:00:00.000Z',
    end: '2026-12-01T19:00:00.000Z',
    date: 'Tuesday 1 December',
    window: '10:00–12:00',
    time_zone: 'America/Denver',
    technician: 'Terry',
    address: '1420 Larimer St, Denver, 80202',
    stage: 'scheduled' as const,
    ...over,
  },
  company: { name: 'Acme <Blinds>', phone, email: null },
  link: { expires_at: '2026-12-15T19:00:00.000Z' },
});

describe('the appointment page', () => {
  it('shows the booked visit with its zone, the ways to change it and Add to calendar', () => {
    const html = appointmentPage(branding, answer(), 'tok_123');
    expect(html).toContain('Your appointment is booked.');
    expect(html).toContain('10:00–12:00 <span class="muted">(MST)</span>');
    expect(html).toContain('Acme &lt;Blinds&gt;');
    expect(html).toContain('href="tel:3035550100"');
    expect(html).toContain('/api/control/portal/appointments/tok_123/appointment.ics');
  });

  it('says on the way with the first name, done and cancelled; no calendar once it is over', () => {
    expect(appointmentPage(branding, answer({ stage: 'on_the_way' }), 't')).toContain('Terry is on the way to you.');
    const nobody = appointmentPage(branding, answer({ stage: 'on_the_way', technician: null }), 't');
    expect(nobody).toContain('Our fitter is on the way to you.');
    expect(nobody).toContain('to be confirmed');
    for (const [stage, words] of [
      ['done', 'This visit is done: thank you!'],
      ['cancelled', 'This appointment is cancelled.'],
    ] as const) {
      const html = appointmentPage(branding, answer({ stage }), 't');
      expect(html).toContain(words);
      expect(html).not.toContain('add-to-calendar');
    }
    expect(appointmentPage(branding, answer({}, null), 't')).toContain('Please contact us.');
  });
});
