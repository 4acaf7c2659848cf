/**
 * The reports' wire shapes (GET /reports/summary, GET /reports/funnel), shared by the control plane
 * and the office screen. Money is integer minor units of `currency`, the tenant's currency.
 * Browser-safe (no imports).
 */

/** The attribution a lead's order and its invoices carry (ERP field names, as on crm.lead). */
export const CARRIED_ATTRIBUTION = [
  'source_id',
  'medium_id',
  'campaign_id',
  'x_form_source',
  'x_lp_slug',
  'x_gclid',
  'x_gbraid',
  'x_wbraid',
  'x_fbclid',
] as const;

/** What the funnel groups by: the form source, the UTM source, medium or campaign, or the landing page. */
export const FUNNEL_GROUPS = ['source', 'utm_source', 'utm_medium', 'utm_campaign', 'landing_page'] as const;
export type FunnelGroup = (typeof FUNNEL_GROUPS)[number];

export interface ReportSummary {
  currency: string;
  /** The range, both days included (yyyy-mm-dd), days in `time_zone` (the tenant's). */
  from: string;
  to: string;
  time_zone: string;
  /** The branch asked for (`?branch=`), else null. */
  branch: string | null;
  /** Jobs done (the Completed stage, or a tenant's own closed one) that ended in the range. */
  jobs_done: number;
  /** Quotes sent (the ERP order sent, confirmed or done) and won (confirmed or done), dated in the range. */
  quotes_sent: number;
  quotes_won: number;
  /** Paid customer invoices dated in the range. */
  revenue: number;
  /** Paid invoices of the calendar month holding `to`, and of the month before. */
  revenue_this_month: number;
  revenue_last_month: number;
}

export interface FunnelRow {
  /** The group's value; null for leads without one (shown as "(none)"). */
  key: string | null;
  leads: number;
  quotes: number;
  won: number;
  paid: number;
  revenue: number;
}

export interface TechnicianRow {
  technician: string;
  jobs: number;
  /** Days with at least one job done. */
  days: number;
  jobs_per_day: number;
  /** Average minutes on site per job (actual start to end, else the scheduled ones). */
  minutes_on_site: number;
}

export interface ProductRow {
  product: string;
  /** Untaxed amount of the paid invoices' lines. */
  revenue: number;
}

export interface ReportFunnel {
  currency: string;
  from: string;
  to: string;
  time_zone: string;
  branch: string | null;
  group: FunnelGroup;
  rows: FunnelRow[];
  /** The rows added up: `total.revenue` is every paid invoice in the range, to the cent. */
  total: Omit<FunnelRow, 'key'>;
  /** Average total of the quotes sent in the range; null with none. */
  average_quote: number | null;
  /** Average days from a lead's creation to its job done (jobs done in the range with a lead); null with none. */
  lead_to_install_days: number | null;
  technicians: TechnicianRow[];
  products: ProductRow[];
  /** Paid invoices and revenue by branch (the branches the person sees); empty without branches. */
  branches: BranchRevenueRow[];
}

export interface BranchRevenueRow {
  id: string;
  name: string;
  paid: number;
  revenue: number;
}
