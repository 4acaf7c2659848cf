/**
 * Demo data for the field app's demos and browser tests: three jobs on `day` for one technician,
 * with customers, addresses and windows, created through the same service as POST /jobs (so they
 * are real FSM orders in the tenant's ERP and count against the plan). Running it again for the
 * same technician and day changes nothing (each job has its own Idempotency-Key).
 *
 *   const ids = await seedDemoJobs(deps, tenantId, technicianUserId, '2026-11-25');
 */
import type { ControlDeps } from '../../deps.js';
import type { JobWindow } from './jobs.types.js';

const DEMO: {
  hour: string;
  end: string;
  customer: { name: string; phone: string; email: string };
  address: { street: string; city: string; zip: string; state: string };
  windows: JobWindow[];
}[] = [
  {
    hour: '15:00',
    end: '16:30',
    customer: { name: 'Dana Whitfield', phone: '+1 303 555 0142', email: 'dana.whitfield@example.com' },
    address: { street: '1420 Larimer St', city: 'Denver', zip: '80202', state: 'CO' },
    windows: [
      {
        room: 'Living room',
        product: 'Roller shade',
        width_in: 35.5,
        drop_in: 60.125,
        mount: 'inside',
        colour: 'Linen',
      },
      {
        room: 'Living room',
        product: 'Roller shade',
        width_in: 35.5,
        drop_in: 60.125,
        mount: 'inside',
        colour: 'Linen',
      },
    ],
  },
  {
    hour: '17:30',
    end: '19:00',
    customer: { name: 'Marcus Ortega', phone: '+1 720 555 0187', email: 'marcus.ortega@example.com' },
    address: { street: '2250 S Downing St', city: 'Denver', zip: '80210', state: 'CO' },
    windows: [
      { room: 'Bedroom', product: 'Cellular shade', width_in: 47.25, drop_in: 52, mount: 'outside', colour: 'Slate' },
      { room: 'Office', product: 'Faux-wood blind', width_in: 29.875, drop_in: 48.5, mount: 'inside', colour: 'White' },
      { room: 'Kitchen', product: 'Roman shade', width_in: 33, drop_in: 36.625, mount: 'inside', colour: 'Oat' },
    ],
  },
  {
    hour: '20:00',
    end: '21:30',
    customer: { name: 'Priya Raman', phone: '+1 303 555 0119', email: 'priya.raman@example.com' },
    address: { street: '815 Pearl St', city: 'Boulder', zip: '80302', state: 'CO' },
    windows: [
      {
        room: 'Sunroom',
        product: 'Plantation shutter',
        width_in: 60,
        drop_in: 72.375,
        mount: 'inside',
        colour: 'Bright white',
      },
    ],
  },
];

/** Creates (once) today's three demo jobs of `technicianUserId` on `day` (YYYY-MM-DD, times in UTC); returns their ids in route order. */
export async function seedDemoJobs(
  deps: ControlDeps,
  tenantId: string,
  technicianUserId: string,
  day: string,
): Promise<string[]> {
  const principal = { userId: technicianUserId, tenantId, role: 'office' as const, email: 'demo-seed@platform' };
  const ids: string[] = [];
  for (const [i, d] of DEMO.entries()) {
    const a = await deps.jobs.commands.create(
      { principal, actor: { kind: 'system' }, idempotencyKey: `seed-demo:${day}:${technicianUserId}:${i + 1}` },
      {
        customer: d.customer,
        address: d.address,
        scheduled_start: `${day}T${d.hour}:00Z`,
        scheduled_end: `${day}T${d.end}:00Z`,
        technician_id: technicianUserId,
        windows: d.windows,
      },
    );
    ids.push((a.body as { id: string }).id);
  }
  return ids;
}
