/**
 * The contract's POST /jobs for the office's tests (apps/control jobs.schemas.ts createBody): a
 * customer or a partner_id, an address, windows as the jobs API takes them (strict: room, product,
 * width_in, drop_in in 1/8 inch, mount, colour), a sale order that must exist, an optional technician
 * and schedule. A job made without a start is in stage `new`; with one, `scheduled`.
 */
import { randomUUID } from 'node:crypto';

import type { StandinJob } from './standin-job.js';

type Issue = { field: string; rule: string; message: string };
type Body = Record<string, unknown>;

const WINDOW_KEYS = ['room', 'product', 'width_in', 'drop_in', 'mount', 'colour'];
const TOP_KEYS = [
  'customer',
  'partner_id',
  'address',
  'scheduled_start',
  'scheduled_end',
  'technician_id',
  'windows',
  'sale_order_id',
];

export interface JobCreateWorld {
  partner(id: number): { id: number; name: string } | undefined;
  hasOrder(id: number): boolean;
  technicians: { id: string; name: string }[];
}

function issuesOf(b: Body, w: JobCreateWorld): Issue[] {
  const out: Issue[] = [];
  for (const k of Object.keys(b))
    if (!TOP_KEYS.includes(k)) out.push({ field: k, rule: 'unknown_field', message: 'Unknown field.' });
  if (!b.customer === !b.partner_id)
    out.push({ field: 'customer', rule: 'one_of', message: 'give either customer or partner_id' });
  const a = (b.address ?? {}) as Body;
  for (const k of ['street', 'city', 'zip'])
    if (!(typeof a[k] === 'string' && (a[k] as string).trim()))
      out.push({
        field: `address.${k}`,
        rule: 'min_length',
        message: 'Too small: expected string to have >=1 characters',
      });
  ((b.windows ?? []) as Body[]).forEach((win, i) => {
    for (const k of Object.keys(win))
      if (!WINDOW_KEYS.includes(k))
        out.push({ field: `windows.${i}.${k}`, rule: 'unknown_field', message: 'Unknown field.' });
    for (const k of ['width_in', 'drop_in'])
      if (!Number.isInteger(Number(win[k]) * 8) || !(Number(win[k]) > 0))
        out.push({ field: `windows.${i}.${k}`, rule: 'eighth_inch', message: `${k} must be in 1/8 inch` });
  });
  if (b.scheduled_end && !b.scheduled_start)
    out.push({ field: 'scheduled_end', rule: 'after_start', message: 'scheduled_end needs scheduled_start' });
  if (b.partner_id && !w.partner(Number(b.partner_id)))
    out.push({ field: 'partner_id', rule: 'not_found', message: 'partner_id is not a customer in the ERP.' });
  if (b.sale_order_id && !w.hasOrder(Number(b.sale_order_id)))
    out.push({ field: 'sale_order_id', rule: 'not_found', message: 'sale_order_id is not a sales order in the ERP.' });
  if (b.technician_id && !w.technicians.some((t) => t.id === b.technician_id))
    out.push({ field: 'technician_id', rule: 'not_a_technician', message: 'technician_id must be a technician.' });
  return out;
}

/** The job to store, or the 422 issues. */
export function createJob(
  b: Body,
  w: JobCreateWorld,
  version: string,
): { job: StandinJob; issues?: undefined } | { issues: Issue[] } {
  const issues = issuesOf(b, w);
  if (issues.length) return { issues };
  const a = b.address as { street: string; city: string; zip: string; state?: string };
  const partner = b.partner_id ? w.partner(Number(b.partner_id))! : (b.customer as { name: string });
  const start = (b.scheduled_start as string | undefined) ?? null;
  const id = randomUUID();
  return {
    job: {
      id,
      name: `FSM/${String(id).slice(0, 4).toUpperCase()}`,
      customer: { id: String(b.partner_id ?? 'new'), name: partner.name, phone: '', email: '' },
      address: { street: a.street, city: a.city, zip: a.zip, state: a.state ?? '', maps_url: '' },
      scheduled_start: start,
      scheduled_end: (b.scheduled_end as string | undefined) ?? null,
      stage: start ? { id: 2, name: 'Scheduled', key: 'scheduled' } : { id: 1, name: 'New', key: 'new' },
      technician: w.technicians.find((t) => t.id === b.technician_id) ?? null,
      route_order: 0,
      windows: (b.windows ?? []) as StandinJob['windows'],
      notes: [],
      checklist: [],
      photos: [],
      signature: null,
      resolution: null,
      sale_order_id: (b.sale_order_id as number | undefined) ?? null,
      version,
    },
  };
}
