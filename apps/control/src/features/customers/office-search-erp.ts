/**
 * The office's global search in the tenant's ERP: leads (`crm.lead`) by name, contact, email or phone
 * in any punctuation; quotes (`sale.order`) and jobs (`fsm.order`) by their reference, or because
 * their customer matches (name, phone, email, address: customers-erp.ts).
 */
import type { Domain, Erp } from '@platform/erp';

import { customerDomain, phonePattern } from './customers-erp.js';

const LIMIT = 5;

/** Ids of the customers the query matches (at most 50: enough to find their documents). */
const matchingCustomers = async (erp: Erp, q: string) =>
  erp.search('res.partner', await customerDomain(erp, q), { limit: 50 });

export async function searchOrders(erp: Erp, q: string) {
  const partners = await matchingCustomers(erp, q);
  const domain: Domain = partners.length
    ? ['|', ['name', 'ilike', q], ['partner_id', 'in', partners]]
    : [['name', 'ilike', q]];
  return erp.searchRead('sale.order', domain, {
    fields: ['name', 'state', 'amount_total', 'partner_id'],
    order: 'id desc',
    limit: LIMIT,
  });
}

export async function searchFsmOrders(erp: Erp, q: string) {
  const partners = await matchingCustomers(erp, q);
  const sites = partners.length
    ? await erp.search('fsm.location', [['partner_id', 'in', partners]], { context: { active_test: false } })
    : [];
  const domain: Domain = sites.length
    ? ['|', ['name', 'ilike', q], ['location_id', 'in', sites]]
    : [['name', 'ilike', q]];
  const orders = await erp.searchRead('fsm.order', domain, {
    fields: ['name', 'stage_id', 'scheduled_date_start', 'location_id'],
    order: 'id desc',
    limit: LIMIT,
  });
  const locIds = [
    ...new Set(orders.flatMap((o) => (Array.isArray(o.location_id) ? [o.location_id[0] as number] : []))),
  ];
  const locs = locIds.length ? await erp.read('fsm.location', locIds, ['partner_id']) : [];
  const customerOf = new Map(
    locs.map((l) => [l.id, Array.isArray(l.partner_id) ? String(l.partner_id[1]) : null] as const),
  );
  return orders.map((o) => ({
    row: o,
    customer: Array.isArray(o.location_id) ? (customerOf.get(o.location_id[0] as number) ?? null) : null,
  }));
}

export async function searchLeads(erp: Erp, q: string) {
  const partners = await matchingCustomers(erp, q);
  const leaves: Domain = [
    ['name', 'ilike', q],
    ['contact_name', 'ilike', q],
    ['email_from', 'ilike', q],
    ['phone', 'ilike', phonePattern(q) ?? q],
    ...(partners.length ? ([['partner_id', 'in', partners]] as Domain) : []),
  ];
  return erp.searchRead('crm.lead', [...Array<'|'>(leaves.length - 1).fill('|'), ...leaves], {
    fields: ['name', 'contact_name', 'email_from', 'phone', 'stage_id'],
    order: 'id desc',
    limit: LIMIT,
  });
}
