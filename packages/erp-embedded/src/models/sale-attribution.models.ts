/**
 * Where a sale came from, carried from the lead to its order and the order's invoices, so reports
 * can group revenue by the lead's source without joining back through the lead (docs/reports.md).
 * Odoo 15's `sale_crm` adds `opportunity_id` to sale.order, and `utm.mixin` gives sale.order and
 * account.move `source_id`, `medium_id` and `campaign_id` (`_prepare_invoice` copies them). The `x_`
 * fields are the lead's own custom attribution fields, added to both models the same way.
 */
import { f } from '../fields.js';
import type { ModelExtension } from '../registry.js';

const attributionFields = () => ({
  source_id: f.many2one('utm.source', 'Source'),
  medium_id: f.many2one('utm.medium', 'Medium'),
  campaign_id: f.many2one('utm.campaign', 'Campaign'),
  x_form_source: f.char('Form Source'),
  x_lp_slug: f.char('Landing Page Slug'),
  x_gclid: f.char('GCLID'),
  x_gbraid: f.char('GBRAID'),
  x_wbraid: f.char('WBRAID'),
  x_fbclid: f.char('FBCLID'),
});

/** The attribution fields an order and its invoices copy from the lead (names as on crm.lead). */
export const CARRIED_ATTRIBUTION = Object.keys(attributionFields());

export const saleAttributionExtensions: ModelExtension[] = [
  {
    model: 'sale.order',
    fields: { opportunity_id: f.many2one('crm.lead', 'Opportunity'), ...attributionFields() },
  },
  { model: 'account.move', fields: attributionFields() },
];
