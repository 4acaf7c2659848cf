/** Figures the reports work out from what the ERP answers: money in minor units, productivity, lead to install. */
import type { TechnicianRow } from '@platform/contracts/reports.js';

import type { DoneJob } from './reports-erp.js';

/** The currency's minor digits, as Intl knows them (2 for USD and EUR, 0 for JPY). */
const minorDigits = (currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** ERP major units to integer minor units, half away from zero (a float sum's last bits never add a cent). */
export function toMinor(amount: number, currency: string): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 10 ** minorDigits(currency));
}

const ms = (erpTime: string) => Date.parse(`${erpTime.slice(0, 19).replace(' ', 'T')}Z`);
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Jobs per day worked and minutes on site per job for each technician; average days from lead to job done. */
export function productivity(
  jobs: DoneJob[],
  leadCreated: Map<number, string>,
): { technicians: TechnicianRow[]; lead_to_install_days: number | null } {
  const by = new Map<string, { jobs: number; days: Set<string>; minutes: number; timed: number }>();
  const installs: number[] = [];
  for (const j of jobs) {
    const name = j.person ?? '(unassigned)';
    let t = by.get(name);
    if (!t) by.set(name, (t = { jobs: 0, days: new Set(), minutes: 0, timed: 0 }));
    t.jobs += 1;
    if (j.day) t.days.add(j.day);
    if (j.start && j.end && ms(j.end) >= ms(j.start)) {
      t.minutes += (ms(j.end) - ms(j.start)) / 60_000;
      t.timed += 1;
    }
    const created = j.saleId ? leadCreated.get(j.saleId) : undefined;
    if (created && j.end) installs.push((ms(j.end) - ms(created)) / 86_400_000);
  }
  const technicians = [...by.entries()]
    .map(([technician, t]) => ({
      technician,
      jobs: t.jobs,
      days: t.days.size,
      jobs_per_day: t.days.size ? round1(t.jobs / t.days.size) : 0,
      minutes_on_site: t.timed ? Math.round(t.minutes / t.timed) : 0,
    }))
    .sort((a, b) => b.jobs - a.jobs || a.technician.localeCompare(b.technician));
  const lead_to_install_days = installs.length ? round1(installs.reduce((a, b) => a + b, 0) / installs.length) : null;
  return { technicians, lead_to_install_days };
}
