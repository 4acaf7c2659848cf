/**
 * Jobs in the tenant's ERP database: OCA field service orders (`fsm.order`) at an `fsm.location`
 * whose partner is the customer, assigned to an `fsm.person`. Everything here speaks the ERP port
 * (Odoo JSON-RPC); callers get platform shapes (ISO instants, stage keys).
 */
import type { Domain, Erp, ErpRecord } from '@platform/erp';

import type { ErpJob } from '../jobs.types.js';
import { fsmStages, type StageMap } from './fsm-stages.js';

/** The fields of an order the platform reads (a direct baseline in the benches reads the same). */
export const ORDER_FIELDS = [
  'name',
  'stage_id',
  'location_id',
  'person_id',
  'scheduled_date_start',
  'scheduled_date_end',
  'resolution',
  'sale_id',
  'write_date',
];

/** ERP datetimes are UTC "YYYY-MM-DD HH:MM:SS"; the API's are ISO 8601. */
export const toIso = (v: unknown): string | null =>
  typeof v === 'string' && v ? `${v.slice(0, 19).replace(' ', 'T')}Z` : null;
export const toErpTime = (iso: string): string => new Date(iso).toISOString().slice(0, 19).replace('T', ' ');

export const m2oId = (v: unknown): number | null => (Array.isArray(v) && typeof v[0] === 'number' ? v[0] : null);
export const m2oName = (v: unknown): string | null => (Array.isArray(v) && v.length > 1 ? String(v[1]) : null);
export const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The orders with these ids, with their customer and address, in the order given. */
export async function readOrders(erp: Erp, ids: number[]): Promise<ErpJob[]> {
  if (!ids.length) return [];
  // search_read, not read: an order deleted in the ERP is simply absent (read would fail).
  const rows = await erp.searchRead('fsm.order', [['id', 'in', ids]], { fields: ORDER_FIELDS });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return shape(
    erp,
    ids.map((id) => byId.get(id)).filter((r): r is ErpRecord => !!r),
  );
}

/** Orders (read with ORDER_FIELDS) with their customer and address: two reads for the whole page. */
export async function shape(erp: Erp, orders: ErpRecord[]): Promise<ErpJob[]> {
  const stages = await fsmStages(erp);
  const locIds = [...new Set(orders.map((o) => m2oId(o.location_id)).filter((x): x is number => x !== null))];
  const locations = locIds.length
    ? await erp.read('fsm.location', locIds, ['partner_id', 'street', 'city', 'zip'])
    : [];
  const partnerIds = [...new Set(locations.map((l) => m2oId(l.partner_id)).filter((x): x is number => x !== null))];
  const partners = partnerIds.length
    ? await erp.read('res.partner', partnerIds, ['name', 'phone', 'mobile', 'email'])
    : [];
  const loc = new Map(locations.map((l) => [l.id, l]));
  const par = new Map(partners.map((p) => [p.id, p]));
  return orders.map((o) => {
    const l = loc.get(m2oId(o.location_id) ?? -1);
    const p = l ? par.get(m2oId(l.partner_id) ?? -1) : undefined;
    return jobOf(
      o,
      stages,
      p ? { id: p.id, name: String(p.name ?? ''), phone: text(p.phone) ?? text(p.mobile), email: text(p.email) } : null,
      { street: text(l?.street), city: text(l?.city), zip: text(l?.zip) },
    );
  });
}

/** An order's row in platform terms, given its customer and address (from wherever they were read). */
export function jobOf(
  o: ErpRecord,
  stages: StageMap,
  customer: ErpJob['customer'],
  address: ErpJob['address'],
): ErpJob {
  const stageId = m2oId(o.stage_id) ?? stages.idOf('new');
  return {
    erpId: o.id,
    name: String(o.name),
    customer,
    address,
    scheduledStart: toIso(o.scheduled_date_start),
    scheduledEnd: toIso(o.scheduled_date_end),
    stage: { id: stageId, name: m2oName(o.stage_id) ?? stages.nameOf(stageId), key: stages.keyOf(stageId) },
    personId: m2oId(o.person_id),
    personName: m2oName(o.person_id),
    resolution: text(o.resolution),
    saleOrderId: m2oId(o.sale_id),
    version: toIso(o.write_date) ?? '',
  };
}

export interface NewOrder {
  customer: { partnerId: number } | { name: string; phone?: string | undefined; email?: string | undefined };
  address: { street: string; city: string; zip: string };
  scheduledStart?: string | undefined;
  scheduledEnd?: string | undefined;
  personId?: number | undefined;
  saleOrderId?: number | undefined;
  /** Shown in the ERP's Instructions (the windows, as text). */
  instructions?: string | undefined;
}

/** The marker paragraph that finds an order again after a lost reply (written in the same create). */
export const markerOf = (marker: string) => `platform-job:${marker}`;

/**
 * The orders the platform made (every job's order carries its marker from its create): the list's
 * scope in the tenant's own ERP database, where the office may also make orders of its own.
 */
export const PLATFORM_ORDERS: Domain = [['description', '=like', `${markerOf('')}%`]];

export async function findOrderByMarker(erp: Erp, marker: string): Promise<number | null> {
  const ids = await erp.search('fsm.order', [['description', 'ilike', markerOf(marker)]], { limit: 1 });
  return ids[0] ?? null;
}

/**
 * The order at a new location of the customer. In OCA a location IS its partner (`_inherits`), so
 * the location carries the customer's own name and phones: writing anything else would rename the
 * customer in a real Odoo, and the order's `location_id` then names the customer (the list's one read).
 */
export async function createOrder(erp: Erp, o: NewOrder, marker: string): Promise<number> {
  const customer =
    'partnerId' in o.customer
      ? await existingCustomer(erp, o.customer.partnerId)
      : {
          id: await erp.create('res.partner', {
            name: o.customer.name,
            phone: o.customer.phone ?? false,
            email: o.customer.email ?? false,
            customer_rank: 1,
            street: o.address.street,
            city: o.address.city,
            zip: o.address.zip,
          }),
          name: o.customer.name,
          phone: o.customer.phone ?? false,
          mobile: false,
        };
  const locationId = await erp.create('fsm.location', {
    name: customer.name,
    partner_id: customer.id,
    owner_id: customer.id,
    phone: customer.phone,
    mobile: customer.mobile,
    street: o.address.street,
    city: o.address.city,
    zip: o.address.zip,
  });
  const stages = await fsmStages(erp);
  return erp.create('fsm.order', {
    location_id: locationId,
    stage_id: stages.idOf(o.scheduledStart ? 'scheduled' : 'new'),
    ...(o.scheduledStart ? { scheduled_date_start: toErpTime(o.scheduledStart) } : {}),
    ...(o.scheduledEnd ? { scheduled_date_end: toErpTime(o.scheduledEnd) } : {}),
    ...(o.personId ? { person_id: o.personId } : {}),
    ...(o.saleOrderId ? { sale_id: o.saleOrderId } : {}),
    ...(o.instructions ? { todo: o.instructions } : {}),
    description: markerOf(marker),
  });
}

async function existingCustomer(erp: Erp, id: number) {
  const [p] = await erp.read('res.partner', [id], ['name', 'phone', 'mobile']);
  return { id, name: String(p?.name || ''), phone: p?.phone ?? false, mobile: p?.mobile ?? false };
}

/** The fsm.person standing for a platform technician: found by email, else made. */
export async function ensurePerson(erp: Erp, t: { name: string; email: string }): Promise<number> {
  const found = await erp.search('fsm.person', [['email', '=', t.email]], { limit: 1 });
  if (found[0]) return found[0];
  const partnerId = await erp.create('res.partner', { name: t.name, email: t.email });
  return erp.create('fsm.person', { name: t.name, email: t.email, partner_id: partnerId });
}
