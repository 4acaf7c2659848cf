/**
 * The office's global search: customers, leads, quotes and jobs matching a name, phone, email,
 * address or order reference, at most 5 of each, each with what the office links it to.
 */
import type { OfficeSearchResult } from '@platform/contracts/customer.js';

import type { TenantErps } from '../tenants/tenant-erps.js';
import type { QuoteIds } from './customers.service.js';
import * as erpSide from './customers-erp.js';
import { searchFsmOrders, searchLeads, searchOrders } from './office-search-erp.js';

const m2oName = (v: unknown) => (Array.isArray(v) && v.length > 1 ? String(v[1]) : null);
const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const when = (v: unknown) => (typeof v === 'string' && v ? `${v.slice(0, 19).replace(' ', 'T')}Z` : null);

/** The platform jobs behind ERP orders (JobsReader's seam). */
export interface JobIds {
  idsForOrders(tenantId: string, orderIds: number[]): Promise<Map<number, string>>;
}

export class OfficeSearch {
  constructor(
    private readonly erps: TenantErps,
    private readonly quotes: QuoteIds,
    private readonly jobs: JobIds,
  ) {}

  async search(tenantId: string, q: string): Promise<OfficeSearchResult> {
    const erp = await this.erps.forTenant(tenantId);
    const customers = await erpSide.searchCustomers(erp, q, 1, 5);
    const leads = await searchLeads(erp, q);
    const orders = await searchOrders(erp, q);
    const fsm = await searchFsmOrders(erp, q);
    const [quoteIds, jobIds] = await Promise.all([
      this.quotes.quoteIdsForOrders(
        tenantId,
        orders.map((o) => o.id),
      ),
      this.jobs.idsForOrders(
        tenantId,
        fsm.map((f) => f.row.id),
      ),
    ]);
    return {
      customers: customers.items,
      leads: leads.map((l) => ({
        id: l.id,
        name: String(l.name),
        contact_name: text(l.contact_name),
        email: text(l.email_from),
        phone: text(l.phone),
        stage: m2oName(l.stage_id),
      })),
      quotes: orders.map((o) => ({ ...erpSide.quoteSummary(o, quoteIds), customer: m2oName(o.partner_id) })),
      jobs: fsm.map(({ row, customer }) => ({
        id: jobIds.get(row.id) ?? null,
        fsm_order_id: row.id,
        name: String(row.name),
        customer,
        stage: m2oName(row.stage_id),
        scheduled_start: when(row.scheduled_date_start),
      })),
    };
  }
}
