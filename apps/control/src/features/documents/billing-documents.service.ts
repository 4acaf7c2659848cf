/**
 * The invoice and supplier purchase-order PDFs (docs/documents.md), read from the tenant's own ERP
 * and gated by `pdf_reports` like the quote. A posted invoice is drawn once, at its first download,
 * and that stored file is what every later download serves, so an issued invoice never changes; a
 * draft (or cancelled) one is drawn as it is now. The portal offers the invoices of the order its
 * quote became, and only those.
 */
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';

import type { PortalInvoicesAnswer } from '@platform/contracts/quote.js';
import { type Db, withTenant } from '@platform/db';
import type { Clock } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { PortalService } from '../portal/portal.service.js';
import type { QuotesService } from '../sales/quotes.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { documentBrand } from './document-brand.js';
import {
  documentNotFound,
  invoicesOfOrder,
  type InvoiceView,
  readInvoice,
  readPurchaseOrder,
} from './documents-erp.js';
import { renderInvoicePdf } from './invoice.pdf.js';
import { keepInvoicePdf, replaceInvoicePdf, storedInvoicePdf } from './invoice-documents.repo.js';
import type { PdfFile } from './pdf-reply.js';
import { renderPurchaseOrderPdf } from './purchase-order.pdf.js';

export interface BillingDocumentsDeps {
  db: Db;
  clock: Clock;
  erps: TenantErps;
  objects: ObjectStore;
  audit: AuditLog;
  quotes: Pick<QuotesService, 'get'>;
  portal: Pick<PortalService, 'link'>;
  /** The plan's `pdf_reports` check (DocumentsService.gate). */
  gate: (tenantId: string) => Promise<void>;
}

/** An invoice as the portal lists it: enough to name the download. */
export type PortalInvoice = PortalInvoicesAnswer['invoices'][number];

const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');
const invoiceName = (v: InvoiceView) => `invoice-${safe(v.state === 'posted' ? v.number : `draft-${v.id}`)}.pdf`;

export class BillingDocuments {
  constructor(private readonly d: BillingDocumentsDeps) {}

  async invoice(p: Principal, id: number): Promise<PdfFile> {
    await this.d.gate(p.tenantId);
    return this.invoiceFile(p.tenantId, id);
  }

  async purchaseOrder(p: Principal, id: number): Promise<PdfFile> {
    await this.d.gate(p.tenantId);
    const po = await readPurchaseOrder(await this.d.erps.forTenant(p.tenantId), id);
    const brand = await this.brand(p.tenantId);
    return { filename: `purchase-order-${safe(po.number)}.pdf`, bytes: await renderPurchaseOrderPdf(brand, po) };
  }

  /** The invoices of the order the link's quote became (none while it is a quote). */
  async portalInvoices(hostTenant: string | undefined, token: string): Promise<PortalInvoice[]> {
    const l = await this.d.portal.link(hostTenant, token, 'view');
    await this.d.gate(l.tenant_id);
    return this.ofQuote(l.tenant_id, l.quote_id);
  }

  /** One of those invoices as a PDF; any other invoice id is the same 404 as no invoice. */
  async portalInvoice(hostTenant: string | undefined, token: string, id: number, ip?: string): Promise<PdfFile> {
    const l = await this.d.portal.link(hostTenant, token, 'view');
    await this.d.gate(l.tenant_id);
    if (!(await this.ofQuote(l.tenant_id, l.quote_id)).some((i) => i.id === id)) throw documentNotFound('invoice');
    const file = await this.invoiceFile(l.tenant_id, id);
    await withTenant(this.d.db, l.tenant_id, (tx) =>
      this.d.audit.record(tx, {
        tenantId: l.tenant_id,
        actor: { kind: 'portal', id: l.id },
        action: 'portal.invoice.pdf',
        target: { type: 'quote', id: l.quote_id },
        ...(ip ? { ip } : {}),
        detail: { invoice_id: id },
      }),
    );
    return file;
  }

  private async ofQuote(tenantId: string, quoteId: string): Promise<PortalInvoice[]> {
    const q = await this.d.quotes.get(tenantId, quoteId);
    return q.sale_order_id ? invoicesOfOrder(await this.d.erps.forTenant(tenantId), q.sale_order_id) : [];
  }

  private brand(tenantId: string) {
    return withTenant(this.d.db, tenantId, (tx) => documentBrand(tx, this.d.objects, tenantId));
  }

  private async invoiceFile(tenantId: string, id: number): Promise<PdfFile> {
    const view = await readInvoice(await this.d.erps.forTenant(tenantId), id);
    const filename = invoiceName(view);
    const draw = async () => renderInvoicePdf(await this.brand(tenantId), view, this.d.clock.now().toISOString());
    if (view.state !== 'posted') return { filename, bytes: await draw() };
    const earlier = await withTenant(this.d.db, tenantId, (tx) => storedInvoicePdf(tx, tenantId, id));
    // A stored document lost from storage is drawn (and stored) again rather than refused.
    const stored = earlier ? await this.read(earlier).catch(() => null) : null;
    if (stored) return { filename, bytes: stored };
    const bytes = await draw();
    const key = `${tenantId}/documents/invoice-${id}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.pdf`;
    await this.d.objects.put(key, bytes, { contentType: 'application/pdf' });
    if (earlier) return { filename, bytes: await this.replace(tenantId, id, key, bytes) };
    const kept = await withTenant(this.d.db, tenantId, (tx) => keepInvoicePdf(tx, tenantId, id, key));
    if (kept === key) return { filename, bytes };
    // Another download stored its document first: that one is the invoice's, this copy goes.
    await this.d.objects.delete(key).catch(() => undefined);
    return { filename, bytes: await this.read(kept) };
  }

  private read(key: string): Promise<Buffer> {
    return this.d.objects.get(key).then((s) => buffer(s));
  }

  private async replace(tenantId: string, id: number, key: string, bytes: Buffer): Promise<Buffer> {
    await withTenant(this.d.db, tenantId, (tx) => replaceInvoicePdf(tx, tenantId, id, key));
    return bytes;
  }
}
