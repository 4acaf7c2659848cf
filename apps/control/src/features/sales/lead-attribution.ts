/**
 * A quote made from a lead carries the lead's attribution onto its sale order (and the ERP copies it
 * from the order onto the order's invoices), so reports group revenue by where the lead came from
 * with one read_group per stage instead of joining back through the lead (docs/reports.md).
 */
import { CARRIED_ATTRIBUTION } from '@platform/contracts/reports.js';
import type { Erp } from '@platform/erp';

/** `opportunity_id` and the lead's source, medium, campaign, form, landing page and click ids; {} for a lead gone. */
export async function leadAttribution(erp: Erp, leadId: number): Promise<Record<string, unknown>> {
  const [lead] = await erp.read('crm.lead', [leadId], [...CARRIED_ATTRIBUTION]);
  if (!lead) return {};
  const id = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  return { opportunity_id: leadId, ...Object.fromEntries(CARRIED_ATTRIBUTION.map((c) => [c, id(lead[c]) ?? false])) };
}
