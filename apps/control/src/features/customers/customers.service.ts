/**
 * The office's customers: searched and read from the tenant's ERP with their leads, quotes, jobs,
 * messages and notes; a note added to their chatter; a duplicate merged into them. Changes are audited.
 */
import type { CustomerMessage, CustomerView } from '@platform/contracts/customer.js';
import type { Db } from '@platform/db';
import type { Erp, ErpRecord } from '@platform/erp';
import { AppError } from '@platform/kernel';
import { escapeHtml } from '@platform/web/escape-html.js';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as erpSide from './customers-erp.js';

/** The platform quotes behind ERP orders (QuotesService's seam). */
export interface QuoteIds {
  quoteIdsForOrders(tenantId: string, saleOrderIds: number[]): Promise<Map<number, string>>;
}

const notFound = () => new AppError('NOT_FOUND', 'No such customer.');
const m2oName = (v: unknown) => (Array.isArray(v) && v.length > 1 ? String(v[1]) : null);
const when = (v: unknown) => (typeof v === 'string' && v ? `${v.slice(0, 19).replace(' ', 'T')}Z` : null);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** The ERP's HTML as the text a person wrote: paragraphs and breaks become new lines. */
export const htmlToText = (html: string) =>
  html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITIES[e]!)
    .trim();

function messageView(m: ErpRecord): CustomerMessage {
  return {
    id: m.id,
    body: htmlToText(String(m.body ?? '')),
    at: when(m.date),
    // The platform's own notes name their writer in email_from (the ERP author is its service account).
    author: (typeof m.email_from === 'string' && m.email_from) || m2oName(m.author_id),
    on: m.model === 'crm.lead' ? 'lead' : 'customer',
    kind: m2oName(m.subtype_id) === 'Note' ? 'note' : 'message',
  };
}

const digits = (v: unknown) => (typeof v === 'string' ? v.replace(/\D/g, '').slice(-10) : '');

export class CustomersService {
  constructor(
    private readonly db: Db,
    private readonly erps: TenantErps,
    private readonly quotes: QuoteIds,
    private readonly audit: AuditLog,
  ) {}

  async list(tenantId: string, q: string | undefined, page: number, pageSize: number) {
    const { items, total } = await erpSide.searchCustomers(await this.erps.forTenant(tenantId), q, page, pageSize);
    return { items, page, page_size: pageSize, total };
  }

  private async customer(erp: Erp, id: number): Promise<ErpRecord> {
    const c = await erpSide.readCustomer(erp, id);
    if (!c) throw notFound();
    return c;
  }

  async get(tenantId: string, id: number): Promise<CustomerView> {
    const erp = await this.erps.forTenant(tenantId);
    const c = await this.customer(erp, id);
    const [{ leads, orders, jobs, chatter }, dups] = await Promise.all([
      erpSide.recordsOf(erp, c),
      erpSide.duplicatesOf(erp, c),
    ]);
    const quoteIds = await this.quotes.quoteIdsForOrders(
      tenantId,
      orders.map((o) => o.id),
    );
    const messages = chatter.map(messageView);
    const phones = new Set([digits(c.phone), digits(c.mobile)].filter((d) => d.length >= 7));
    return {
      ...erpSide.partnerView(c),
      leads: leads.map((l) => ({
        id: l.id,
        name: String(l.name),
        type: String(l.type),
        stage: m2oName(l.stage_id),
        created: when(l.create_date),
      })),
      quotes: orders.map((o) => erpSide.quoteSummary(o, quoteIds)),
      jobs: jobs.map((j) => ({
        fsm_order_id: j.id,
        name: String(j.name),
        stage: m2oName(j.stage_id),
        scheduled_start: when(j.scheduled_date_start),
        technician: m2oName(j.person_id),
      })),
      messages: messages.filter((m) => m.kind === 'message'),
      notes: messages.filter((m) => m.kind === 'note'),
      duplicates: dups.map((d) => ({
        ...erpSide.partnerView(d),
        matched_on: [
          ...(typeof c.email === 'string' && String(d.email ?? '').toLowerCase() === c.email.toLowerCase()
            ? (['email'] as const)
            : []),
          ...([digits(d.phone), digits(d.mobile)].some((x) => phones.has(x)) ? (['phone'] as const) : []),
        ],
      })),
    };
  }

  private record(p: Principal, action: string, id: number, ip: string | undefined, detail: Record<string, unknown>) {
    return this.audit.recordUserAction(this.db, p, {
      action,
      target: { type: 'customer', id },
      ...(ip ? { ip } : {}),
      detail,
    });
  }

  /** A note on the customer (plain text from the office, escaped into the ERP's HTML). */
  async addNote(p: Principal, id: number, body: string, ip?: string): Promise<CustomerView> {
    const erp = await this.erps.forTenant(p.tenantId);
    await this.customer(erp, id);
    const html = body
      .split(/\n{2,}/)
      .filter((x) => x.trim())
      .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>')}</p>`)
      .join('');
    const messageId = await erpSide.postNote(erp, id, html, p.email);
    await this.record(p, 'customer.note', id, ip, { message_id: messageId });
    return this.get(p.tenantId, id);
  }

  /** Merges `duplicateId` into customer `id` (the one kept). */
  async merge(p: Principal, id: number, duplicateId: number, ip?: string): Promise<CustomerView> {
    const erp = await this.erps.forTenant(p.tenantId);
    const kept = await this.customer(erp, id);
    const dup = duplicateId === id ? undefined : await erpSide.readCustomer(erp, duplicateId);
    if (!dup)
      throw new AppError('VALIDATION_FAILED', 'The customer to merge in must be another active customer.', {
        fieldIssues: [
          {
            field: 'duplicate_id',
            rule: duplicateId === id ? 'other' : 'exists',
            message: duplicateId === id ? 'must be another customer' : 'no active customer with this id',
          },
        ],
      });
    const moved = await erpSide.mergeInto(erp, kept, dup);
    await this.record(p, 'customer.merge', id, ip, {
      merged: duplicateId,
      leads: moved.leads,
      sale_orders: moved.orders,
      fsm_locations: moved.sites,
      filled: moved.filled,
    });
    return this.get(p.tenantId, id);
  }
}
