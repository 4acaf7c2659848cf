/**
 * The reports' reads of the tenant's ERP, each one `read_group` (one GROUP BY in the ERP, Odoo's own
 * aggregate call) so a tenant with years of history costs one statement per figure, not a page of
 * records per figure. Money comes back in the ERP's major units; the service turns it into minor units.
 * Orders and invoices carry their lead's attribution (sale-attribution in the embedded ERP), so every
 * stage groups by the same field without joining back through the lead.
 */
import type { FunnelGroup } from '@platform/contracts/reports.js';
import type { Domain, Erp } from '@platform/erp';

/** The ERP field each funnel group reads (the same name on crm.lead, sale.order and account.move). */
export const GROUP_FIELDS: Record<FunnelGroup, string> = {
  source: 'x_form_source',
  utm_source: 'source_id',
  utm_medium: 'medium_id',
  utm_campaign: 'campaign_id',
  landing_page: 'x_lp_slug',
};

/**
 * A day range as ERP datetimes (UTC) from the first day's midnight to the midnight after the last, in
 * the tenant's time zone; and as the days themselves (`toDay` the day after the last) for date fields.
 */
export interface ErpRange {
  from: string;
  to: string;
  fromDay: string;
  toDay: string;
}

const within = (field: string, r: ErpRange, dateOnly = false): Domain => [
  [field, '>=', dateOnly ? r.fromDay : r.from],
  [field, '<', dateOnly ? r.toDay : r.to],
];

/** The ZIP each model's record is placed in a branch by: the lead's, the customer's, the job site's. */
export const BRANCH_ZIP_FIELDS = {
  lead: 'zip',
  order: 'partner_id.zip',
  invoice: 'partner_id.zip',
  line: 'move_id.partner_id.zip',
  job: 'location_id.zip',
} as const;
/** A branch filter as one domain per model (BranchesService.scopes); absent when nothing narrows. */
export type BranchScope = Record<keyof typeof BRANCH_ZIP_FIELDS, Domain>;

export const QUOTED: Domain = [['state', 'in', ['sent', 'sale', 'done']]];
export const WON: Domain = [['state', 'in', ['sale', 'done']]];
/** Customer invoices paid (or paid and awaiting the bank), posted. */
export const PAID: Domain = [
  ['move_type', '=', 'out_invoice'],
  ['state', '=', 'posted'],
  ['payment_state', 'in', ['paid', 'in_payment']],
];

export interface Group {
  key: string | null;
  count: number;
  sum: number;
}

const keyOf = (v: unknown): string | null =>
  Array.isArray(v) ? String(v[1]) : typeof v === 'string' && v !== '' ? v : null;

async function grouped(erp: Erp, model: string, domain: Domain, field: string, sum?: string): Promise<Group[]> {
  const rows = (await erp.call(model, 'read_group', [domain, sum ? [`${sum}:sum`] : [], [field]], {
    lazy: false,
    context: { active_test: false },
  })) as Record<string, unknown>[];
  return rows.map((r) => ({ key: keyOf(r[field]), count: Number(r.__count ?? 0), sum: sum ? Number(r[sum] ?? 0) : 0 }));
}

/** Leads created, quotes, won orders and paid invoices (with their total) in the range, by the group's field. */
export async function funnelStages(erp: Erp, group: FunnelGroup, r: ErpRange, s?: BranchScope) {
  const field = GROUP_FIELDS[group];
  const [leads, quotes, won, paid] = await Promise.all([
    grouped(erp, 'crm.lead', [...(s?.lead ?? []), ...within('create_date', r)], field),
    grouped(erp, 'sale.order', [...(s?.order ?? []), ...quotesIn(r, false)], field),
    grouped(erp, 'sale.order', [...(s?.order ?? []), ...quotesIn(r, true)], field),
    grouped(erp, 'account.move', [...(s?.invoice ?? []), ...paidIn(r)], field, 'amount_total'),
  ]);
  return { leads, quotes, won, paid };
}

/** One figure: how many records match and (given a field) their sum. */
export async function total(
  erp: Erp,
  model: string,
  domain: Domain,
  sum?: string,
): Promise<{ count: number; sum: number }> {
  const [row] = (await erp.call(model, 'read_group', [domain, sum ? [`${sum}:sum`] : [], []], {
    lazy: false,
  })) as Record<string, unknown>[];
  return { count: Number(row?.__count ?? 0), sum: sum ? Number(row?.[sum] ?? 0) : 0 };
}

/** Jobs in a "done" stage (the jobs feature's stage map: Completed and a tenant's own closed stages) finished in the range. */
export const jobsDone = (r: ErpRange, doneStages: number[]): Domain => [
  ['stage_id', 'in', doneStages],
  ...within('date_end', r),
];
export const quotesIn = (r: ErpRange, won: boolean): Domain => [...(won ? WON : QUOTED), ...within('date_order', r)];
export const paidIn = (r: ErpRange): Domain => [...PAID, ...within('invoice_date', r, true)];

/**
 * Untaxed revenue of the paid invoices' lines by product. Lines with a product only: Odoo's own
 * receivable and tax journal items have none (and the embedded ERP keeps invoice lines only).
 */
export async function revenueByProduct(erp: Erp, r: ErpRange, s?: BranchScope): Promise<Group[]> {
  const moves = paidIn(r).map((leaf) => (Array.isArray(leaf) ? [`move_id.${leaf[0]}`, leaf[1], leaf[2]] : leaf));
  return grouped(
    erp,
    'account.move.line',
    [['product_id', '!=', false], ...(s?.line ?? []), ...(moves as Domain)],
    'product_id',
    'price_subtotal',
  );
}

export interface DoneJob {
  person: string | null;
  start: string | null;
  end: string | null;
  day: string | null;
  saleId: number | null;
}

/** The jobs done in the range (technician, times on site, order): productivity and lead-to-install. */
export async function doneJobs(erp: Erp, r: ErpRange, doneStages: number[], s?: BranchScope): Promise<DoneJob[]> {
  const rows = await erp.searchRead('fsm.order', [...(s?.job ?? []), ...jobsDone(r, doneStages)], {
    fields: ['person_id', 'date_start', 'date_end', 'scheduled_date_start', 'scheduled_date_end', 'sale_id'],
  });
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return rows.map((o) => ({
    person: keyOf(o.person_id),
    start: text(o.date_start) ?? text(o.scheduled_date_start),
    end: text(o.date_end) ?? text(o.scheduled_date_end),
    day: text(o.date_end)?.slice(0, 10) ?? null,
    saleId: Array.isArray(o.sale_id) ? (o.sale_id[0] as number) : null,
  }));
}

/** Each order's lead creation time (orders made from a lead): for time from lead to install. */
export async function leadCreatedOf(erp: Erp, saleIds: number[]): Promise<Map<number, string>> {
  if (!saleIds.length) return new Map();
  const orders = await erp.searchRead(
    'sale.order',
    [
      ['id', 'in', saleIds],
      ['opportunity_id', '!=', false],
    ],
    {
      fields: ['opportunity_id'],
    },
  );
  const leadOf = new Map(orders.map((o) => [o.id, (o.opportunity_id as [number, string])[0]]));
  const leads = await erp.searchRead('crm.lead', [['id', 'in', [...new Set(leadOf.values())]]], {
    fields: ['create_date'],
    context: { active_test: false },
  });
  const created = new Map(leads.map((l) => [l.id, String(l.create_date)]));
  const out = new Map<number, string>();
  for (const [sale, lead] of leadOf) if (created.has(lead)) out.set(sale, created.get(lead)!);
  return out;
}
