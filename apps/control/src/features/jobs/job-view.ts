/** One Job as the API shows it: the ERP's order plus the platform's rows of that job. */
import { inches } from '@platform/contracts/window-pricing.js';

import type { JobDetailRows, JobRow } from './jobs.repo.js';
import type { ErpJob, Job, JobWindow } from './jobs.types.js';

/**
 * Every job's checklist: fixed steps around one item per window (ticks are stored per item id). Sizes
 * are written as a tape measure reads them (36 1/8, not 36.125), as the job's window list is.
 */
export function checklistItems(windows: JobWindow[]): { id: string; label: string }[] {
  return [
    { id: 'confirm', label: 'Confirm the windows and measurements with the customer' },
    ...windows.map((w, i) => ({
      id: `window-${i + 1}`,
      label: `Install ${w.room}: ${w.product}, ${inches(w.width_in)}" × ${inches(w.drop_in)}", ${w.mount} mount`,
    })),
    { id: 'test', label: 'Test every covering with the customer' },
    { id: 'cleanup', label: 'Clean up and take the packaging away' },
  ];
}

export function mapsUrl(a: { street: string | null; city: string | null; state: string | null; zip: string | null }) {
  const q = [a.street, a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(q)}`;
}

export function jobView(
  row: JobRow,
  erp: ErpJob,
  d: JobDetailRows,
  technicians: Map<number, { id: string; name: string }>,
): Job {
  const windows = d.windows
    .filter((w) => w.job_id === row.id)
    .map(({ room, product, width_in, drop_in, mount, colour }) => ({
      room,
      product,
      width_in,
      drop_in,
      mount,
      colour,
    }));
  const ticks = new Map(d.checklist.filter((c) => c.job_id === row.id).map((c) => [c.item_id, c.done]));
  const files = d.attachments.filter((a) => a.job_id === row.id);
  const signature = files.filter((a) => a.kind === 'signature').at(-1);
  const address = { ...erp.address, state: row.address_state };
  return {
    id: row.id,
    name: erp.name,
    kind: row.kind,
    quote_id: row.quote_id,
    customer: erp.customer,
    address: { ...address, maps_url: mapsUrl(address) },
    scheduled_start: erp.scheduledStart,
    scheduled_end: erp.scheduledEnd,
    stage: erp.stage,
    technician: erp.personId !== null ? (technicians.get(erp.personId) ?? null) : null,
    route_order: row.route_order,
    windows,
    notes: d.notes
      .filter((n) => n.job_id === row.id)
      .map((n) => ({
        id: n.id,
        body: n.body,
        author: { id: n.author_id, name: n.author_name },
        at: new Date(n.at).toISOString(),
      })),
    checklist: checklistItems(windows).map((c) => ({ ...c, done: ticks.get(c.id) ?? false })),
    photos: files
      .filter((a) => a.kind !== 'signature')
      .map((a) => ({
        key: a.key,
        kind: a.kind,
        at: new Date(a.at).toISOString(),
        // Only a measured window's photo says which (the other photos answer as they always did).
        ...(a.measurement_id ? { measurement_id: a.measurement_id } : {}),
      })),
    signature: signature ? { key: signature.key, at: new Date(signature.at).toISOString() } : null,
    resolution: erp.resolution,
    sale_order_id: erp.saleOrderId,
    version: erp.version,
  };
}
