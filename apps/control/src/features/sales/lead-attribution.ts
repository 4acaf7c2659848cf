/**
 * A quote made from a lead carries the lead's attribution onto its sale order (and the ERP copies it
 * from the order onto the order's invoices), so reports group revenue by where the lead came from
 * with one read_group per stage instead of joining back through the lead (docs/reports.md).
 */
import { CARRIED_ATTRIBUTION } from '@platform/contracts/reports.js';
import type { Erp } from '@platform/erp';

// The fields sale.order has, per ERP client: a production Odoo without the custom `x_` fields on
// orders still gets the lead, source, medium and campaign (Odoo's own), and its quotes never fail on them.
const orderFields = new WeakMap<Erp, Promise<Set<string>>>();
function fieldsOfOrders(erp: Erp): Promise<Set<string>> {
  let p = orderFields.get(erp);
  if (!p) {
    p = erp.fieldsGet('sale.order', ['type']).then((f) => new Set(Object.keys(f)));
    orderFields.set(erp, p);
    p.catch(() => orderFields.delete(erp));
  }
  return p;
}

/** `opportunity_id` and the lead's source, medium, campaign, form, landing page and click ids; {} for a lead gone. */
export async function leadAttribution(erp: Erp, leadId: number): Promise<Record<string, unknown>> {
  const [[lead], known] = await Promise.all([
    // search_read, not read: a lead deleted in the ERP is simply absent (read would fail the quote).
    erp.searchRead('crm.lead', [['id', '=', leadId]], {
      fields: [...CARRIED_ATTRIBUTION],
      context: { active_test: false },
    }),
    fieldsOfOrders(erp),
  ]);
  if (!lead) return {};
  const id = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  const values: Record<string, unknown> = { opportunity_id: leadId };
  for (const c of CARRIED_ATTRIBUTION) values[c] = id(lead[c]) ?? false;
  return Object.fromEntries(Object.entries(values).filter(([k]) => known.has(k)));
}
