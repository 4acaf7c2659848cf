/**
 * Quotes: priced from the tenant's grids, recorded on the platform first (so a retry with the same
 * Idempotency-Key finishes the same quote), then made a sale.order with its lines in the tenant's
 * ERP. Sending hands out a portal link; confirming confirms the order in the ERP.
 */
import type { DepositRule } from '@platform/contracts';
import type { QuoteTaxes } from '@platform/contracts/quote-tax.js';
import { type Db, withTenant } from '@platform/db';
import type { Erp } from '@platform/erp';
import { fingerprint, keyReused } from '@platform/intake';
import { AppError, type Clock, isAppError, newId } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { depositOf } from '../payments/deposit-amount.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { draftFromMeasurements, type MeasuredDraft } from './measured-quotes.js';
import { enqueueOrderConfirmed } from './order-confirmed.enqueue.js';
import type { QuoteBody } from './price-grid.schemas.js';
import type { PriceGridsService } from './price-grids.service.js';
import { priceWindows } from './pricing.js';
import { makeQuoteOrder } from './quote-order.js';
import { type QuoteView, quoteView } from './quote-view.js';
import * as repo from './quotes.repo.js';
import * as erpSide from './sales-erp.js';
import { saleTaxes } from './sales-erp-taxes.js';

export interface QuotesOptions {
  /** The tenant's deposit rule and currency (PaymentSettingsService, the tenant's settings). */
  deposit: { rule(tenantId: string): Promise<DepositRule>; currency(tenantId: string): Promise<string> };
  /** Moves the quote's lead when the quote is accepted (PipelineService.follow); never fails it. */
  onAccepted?: (tenantId: string, leadId: number) => Promise<void>;
}

export const notFound = () => new AppError('NOT_FOUND', 'No such quote.');

export const userActor = (p: Principal, ip?: string) => ({
  tenantId: p.tenantId,
  actor: { kind: 'user' as const, id: p.userId },
  ...(ip ? { ip } : {}),
});

export class QuotesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly erps: TenantErps,
    private readonly grids: PriceGridsService,
    private readonly audit: AuditLog,
    private readonly opts: QuotesOptions,
  ) {}

  async create(p: Principal, body: QuoteBody, key: string | undefined, ip?: string): Promise<QuoteView> {
    const fp = fingerprint('quote', body);
    const erp = await this.erps.forTenant(p.tenantId);
    const earlier = key
      ? await withTenant(this.db, p.tenantId, (tx) => repo.quoteByKey(tx, p.tenantId, key))
      : undefined;
    if (earlier) return this.finish(erp, earlier, fp);
    if (body.partner_id !== undefined && !(await erpSide.assertPartner(erp, body.partner_id)))
      throw new AppError('VALIDATION_FAILED', 'No such customer.', {
        fieldIssues: [{ field: 'partner_id', rule: 'exists', message: 'no customer with this id' }],
      });
    const id = newId();
    const branchId = await this.grids.branch?.forQuote(erp, p.tenantId, body);
    const row = await withTenant(this.db, p.tenantId, async (tx) => {
      const codes = body.lines.map((l) => l.product_code);
      const grids = await this.grids.forCodes(tx, p.tenantId, codes, branchId);
      const lines = priceWindows(grids, body.lines);
      const request: repo.QuoteRequest = {
        ...(body.partner_id !== undefined ? { partner_id: body.partner_id } : {}),
        ...(body.customer ? { customer: body.customer } : {}),
        ...(body.note ? { note: body.note } : {}),
        ...(body.lead_id !== undefined ? { lead_id: body.lead_id } : {}),
        lines,
      };
      const fresh = {
        id,
        tenant_id: p.tenantId,
        idempotency_key: key ?? null,
        fingerprint: fp,
        request,
        created_by: p.userId,
      };
      if (!(await repo.insertQuote(tx, fresh))) return repo.quoteByKey(tx, p.tenantId, key!);
      return { ...fresh, erp_order_id: null, created_at: this.clock.now() };
    });
    return this.finish(erp, row!, fp, ip);
  }

  /** Makes (or finds) the ERP order of a quote being created and answers the quote as it is now. */
  private async finish(erp: Erp, row: repo.QuoteRow, fp: string, ip?: string): Promise<QuoteView> {
    if (row.fingerprint !== fp) throw keyReused();
    // The creation is refused with the ERP's refusal and leaves no quote behind.
    if (row.erp_order_id === null)
      row = { ...row, erp_order_id: await makeQuoteOrder(this.db, this.audit, erp, row, 'drop', ip) };
    const orders = await erpSide.readOrders(erp, [row.erp_order_id!], true);
    return quoteView(row, orders.get(row.erp_order_id!), await this.depositOf(row.tenant_id));
  }

  /**
   * The quote, its ERP order made first if its creation could not make it (the ERP was away): the
   * explicit step sending and confirming take. A refusal reaches the office as a 409 naming the
   * quote's state (`pending`) and keeps the quote for another try.
   */
  async withOrder(p: Principal, id: string): Promise<QuoteView> {
    const row = await withTenant(this.db, p.tenantId, (tx) => repo.quoteById(tx, p.tenantId, id));
    if (!row) throw notFound();
    if (row.erp_order_id === null)
      await makeQuoteOrder(this.db, this.audit, await this.erps.forTenant(p.tenantId), row, 'keep').catch(
        (e: unknown) => {
          if (!isAppError(e) || e.code !== 'ERP_REJECTED') throw e;
          throw new AppError('QUOTE_STATE_CONFLICT', `The ERP refused to make this quote's order: ${e.message}`, {
            details: { state: 'pending' },
          });
        },
      );
    return this.get(p.tenantId, id);
  }

  /** The quote as it is now: a read, it changes nothing (a quote without its order answers `pending`). */
  async get(tenantId: string, id: string): Promise<QuoteView> {
    const row = await withTenant(this.db, tenantId, (tx) => repo.quoteById(tx, tenantId, id));
    if (!row) throw notFound();
    const erp = await this.erps.forTenant(tenantId);
    const orders = row.erp_order_id ? await erpSide.readOrders(erp, [row.erp_order_id], true) : new Map();
    const view = quoteView(row, orders.get(row.erp_order_id ?? -1), await this.depositOf(tenantId));
    // A quote for an existing customer answers that customer's own details (address, email, phone).
    const partnerId = row.request.partner_id ?? view.partner?.id;
    if (!view.customer && partnerId) view.customer = await erpSide.partnerContact(erp, partnerId).catch(() => null);
    return view;
  }

  /** The tenant's deposit rule as a function of a quote's total (read once per answer). */
  private async depositOf(tenantId: string): Promise<(total: number) => number> {
    const [rule, currency] = await Promise.all([
      this.opts.deposit.rule(tenantId),
      this.opts.deposit.currency(tenantId),
    ]);
    return (total) => depositOf(rule, total, currency).amount;
  }

  async list(tenantId: string, page: number, pageSize: number) {
    const { rows, total } = await withTenant(this.db, tenantId, (tx) => repo.listQuotes(tx, tenantId, page, pageSize));
    const erp = await this.erps.forTenant(tenantId);
    const ids = rows.flatMap((r) => (r.erp_order_id ? [r.erp_order_id] : []));
    const orders = await erpSide.readOrders(erp, ids, false);
    const deposit = await this.depositOf(tenantId);
    const items = rows.map((r) => {
      const { lines: _l, ...rest } = quoteView(r, orders.get(r.erp_order_id ?? -1), deposit);
      return { ...rest, windows: r.request.lines.length };
    });
    return { items, page, page_size: pageSize, total };
  }

  /** The taxes the builder shows per product code (ERP product taxes, else the company default). */
  async taxes(tenantId: string): Promise<QuoteTaxes> {
    const codes = (await this.grids.list(tenantId)).map((g) => g.product_code);
    return (await saleTaxes(await this.erps.forTenant(tenantId), codes)).taxes;
  }

  async orders(tenantId: string, page: number, pageSize: number) {
    const erp = await this.erps.forTenant(tenantId);
    const { items, total } = await erpSide.listOrders(erp, ['sale', 'done'], page, pageSize);
    return { items: items.map(({ lines: _l, ...o }) => o), page, page_size: pageSize, total };
  }

  async confirm(p: Principal, id: string, ip?: string): Promise<QuoteView> {
    const q = await this.withOrder(p, id);
    if (!q.sale_order_id)
      throw new AppError('QUOTE_STATE_CONFLICT', 'The quote is not in the ERP yet; retry its creation.');
    const erp = await this.erps.forTenant(p.tenantId);
    const before = q.state;
    await erpSide.confirmOrder(erp, q.sale_order_id);
    const orderId = q.sale_order_id;
    await withTenant(this.db, p.tenantId, async (tx) => {
      await this.audit.record(tx, {
        ...userActor(p, ip),
        action: 'sales.quote.confirm',
        target: { type: 'quote', id },
        detail: { sale_order_id: orderId, from: before },
      });
      // Confirmed by the office: its supplier orders are drafted (once per order, however often).
      await enqueueOrderConfirmed(tx, p.tenantId, orderId);
    });
    if (q.lead_id && this.opts.onAccepted) await this.opts.onAccepted(p.tenantId, q.lead_id).catch(() => undefined);
    return this.get(p.tenantId, id);
  }

  /**
   * SEAM for jobs: the windows of a sale order made from a platform quote (room, product, sizes,
   * mount, colour), so an install job can carry them; empty for orders made elsewhere.
   */
  async windowsForOrder(tenantId: string, saleOrderId: number) {
    const row = await withTenant(this.db, tenantId, (tx) => repo.quoteByOrder(tx, tenantId, saleOrderId));
    return (row?.request.lines ?? []).map((l) => ({
      room: l.room,
      product: l.product_name,
      product_code: l.product_code,
      width_in: l.width_in,
      drop_in: l.drop_in,
      mount: l.mount,
      colour: l.colour,
      options: l.option_lines.map((o) => o.name),
    }));
  }

  /** SEAM for measure jobs: the job's one draft quote, made or brought up to date (measured-quotes.ts). */
  async draftFromMeasurements(p: Principal, draft: MeasuredDraft): Promise<{ quoteId: string; updated: boolean }> {
    const erp = await this.erps.forTenant(p.tenantId);
    return draftFromMeasurements({ db: this.db, audit: this.audit, erp }, p, draft);
  }

  /** SEAM for customers: the platform quote made for each of these ERP orders (orders made elsewhere are absent). */
  async quoteIdsForOrders(tenantId: string, saleOrderIds: number[]): Promise<Map<number, string>> {
    const rows = await withTenant(this.db, tenantId, async (tx) => {
      const found: (repo.QuoteRow | undefined)[] = [];
      for (const id of saleOrderIds) found.push(await repo.quoteByOrder(tx, tenantId, id));
      return found;
    });
    return new Map(rows.flatMap((r) => (r?.erp_order_id ? [[r.erp_order_id, r.id] as const] : [])));
  }
}
