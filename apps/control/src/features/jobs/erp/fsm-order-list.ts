/**
 * A page of the job list from ONE ERP call: `search_read` of fsm.order with OCA's related fields of
 * the location (street, city, zip, phone, mobile), whose `location_id` names the customer (a location
 * IS its partner in OCA, and the platform names the locations it makes after their customer). The
 * list's customer is the name and phone the screens show; its partner id and email are the single
 * job's (GET /jobs/{id} reads the partner).
 */
import type { Domain, Erp, ErpRecord } from '@platform/erp';

import type { ErpJob } from '../jobs.types.js';
import { jobOf, m2oName, ORDER_FIELDS, shape, text } from './fsm-orders.js';
import { fsmStages } from './fsm-stages.js';

/** What a list row reads of an order (the bench's direct baseline reads the same). */
export const LIST_FIELDS = [...ORDER_FIELDS, 'street', 'city', 'zip', 'phone', 'mobile'];

/**
 * The list's order, kept by the ERP: technician (by name, unassigned last), then scheduled start
 * (unscheduled last), then id. The platform's route order breaks ties of one technician's start
 * within the page (JobsReader.list).
 */
export const LIST_ORDER = 'person_id, scheduled_date_start, id';

/**
 * One page of the orders matching `domain`, unshaped, and how many match in all. The page is asked
 * for with one row more: a first page that is not full is the whole answer, and needs no count.
 */
export async function pageOfOrders(
  erp: Erp,
  domain: Domain,
  page: { offset: number; limit: number },
): Promise<{ orders: ErpRecord[]; total: number }> {
  const rows = await erp.searchRead('fsm.order', domain, {
    fields: LIST_FIELDS,
    order: LIST_ORDER,
    offset: page.offset,
    limit: page.limit + 1,
  });
  const orders = rows.slice(0, page.limit);
  if (rows.length <= page.limit && (page.offset === 0 || rows.length > 0))
    return { orders, total: page.offset + rows.length };
  return { orders, total: await erp.searchCount('fsm.order', domain) };
}

/**
 * Jobs made before locations were named after their customer sit at a location named
 * "street, city": that name is no customer's, so those rows (and only those) read the partner.
 */
export const namedByAddress = (o: ErpRecord): boolean =>
  typeof o.street === 'string' && m2oName(o.location_id) === `${o.street}, ${String(o.city || '')}`;

/** The page's rows as jobs: from the rows themselves, but for the few at an address-named location. */
export async function listedJobs(erp: Erp, orders: ErpRecord[]): Promise<ErpJob[]> {
  const [stages, older] = await Promise.all([fsmStages(erp), shape(erp, orders.filter(namedByAddress))]);
  const read = new Map(older.map((j) => [j.erpId, j]));
  return orders.map((o) => {
    const address = { street: text(o.street), city: text(o.city), zip: text(o.zip) };
    const full = read.get(o.id);
    if (full) {
      const c = full.customer;
      return { ...full, address, customer: c && { name: c.name, phone: c.phone } };
    }
    const name = m2oName(o.location_id);
    return jobOf(o, stages, name === null ? null : { name, phone: text(o.phone) ?? text(o.mobile) }, address);
  });
}
