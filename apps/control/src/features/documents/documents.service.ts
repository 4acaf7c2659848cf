/**
 * The tenant's PDF documents (docs/documents.md), gated by the plan's `pdf_reports`: a quote (office
 * and portal) and a job's report. A quote is rendered and stored once, at its first send, and that
 * stored file is what every later download and the email carry, so a sent document never changes;
 * an unsent quote is drawn as it is now. Invoices and supplier purchase orders: `billing`.
 */
import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';

import { type Db, withTenant } from '@platform/db';
import { isAppError } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';
import sharp from 'sharp';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { JobsReader } from '../jobs/jobs.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { PortalService } from '../portal/portal.service.js';
import type { QuotesService } from '../sales/quotes.service.js';
import type { SentQuotePdfs } from '../sales/sent-quote-pdfs.js';
import { BillingDocuments, type BillingDocumentsDeps } from './billing-documents.service.js';
import { documentBrand } from './document-brand.js';
import { renderJobReportPdf, type ReportImage } from './job-report.pdf.js';
import type { PdfFile } from './pdf-reply.js';
import { renderQuotePdf } from './quote.pdf.js';

export type { PdfFile };

export interface DocumentsDeps {
  db: Db;
  plans: Pick<PlanLimits, 'assertFeature'>;
  objects: ObjectStore;
  audit: AuditLog;
  quotes: Pick<QuotesService, 'get'>;
  sentPdfs: SentQuotePdfs;
  jobs: Pick<JobsReader, 'get'>;
  portal: Pick<PortalService, 'link'>;
  /** How long a quote stands from the day it was made (the portal link's lifetime). */
  quoteValidDays: number;
  /** The ERP and clock the invoice and purchase-order documents need. */
  billing: Pick<BillingDocumentsDeps, 'erps' | 'clock'>;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');
/** `photo_after` reads "Photo after" under the picture. */
const kindLabel = (kind: string) => kind.charAt(0).toUpperCase() + kind.slice(1).replace(/_/g, ' ');
const read = (objects: ObjectStore, key: string) => objects.get(key).then((s) => buffer(s));

export class DocumentsService {
  /** Invoices and supplier purchase orders, behind the same plan gate. */
  readonly billing: BillingDocuments;

  constructor(private readonly d: DocumentsDeps) {
    this.billing = new BillingDocuments({ ...d, ...d.billing, gate: (t) => this.gate(t) });
  }

  private gate(tenantId: string): Promise<void> {
    return withTenant(this.d.db, tenantId, (tx) => this.d.plans.assertFeature(tx, tenantId, 'pdf_reports'));
  }

  /** The office's download: the sent document when the quote was sent, else the quote as it is now. */
  async quote(p: Principal, id: string): Promise<PdfFile> {
    await this.gate(p.tenantId);
    return this.quoteFile(p.tenantId, id);
  }

  /** The customer's download through their portal link (the same 404 as the portal for a bad link). */
  async portalQuote(hostTenant: string | undefined, token: string, ip?: string): Promise<PdfFile> {
    const l = await this.d.portal.link(hostTenant, token, 'view');
    await this.gate(l.tenant_id);
    const file = await this.quoteFile(l.tenant_id, l.quote_id);
    await withTenant(this.d.db, l.tenant_id, (tx) =>
      this.d.audit.record(tx, {
        tenantId: l.tenant_id,
        actor: { kind: 'portal', id: l.id },
        action: 'portal.quote.pdf',
        target: { type: 'quote', id: l.quote_id },
        ...(ip ? { ip } : {}),
        detail: {},
      }),
    );
    return file;
  }

  /**
   * At a send: the quote's document, rendered and stored the first time (the key kept on the quote),
   * read back every later time. Undefined when the plan has no `pdf_reports` (the email goes without it).
   */
  async sentQuote(tenantId: string, id: string): Promise<PdfFile | undefined> {
    const allowed = await this.gate(tenantId).then(
      () => true,
      (e: unknown) => {
        if (isAppError(e) && e.code === 'PLAN_FEATURE_MISSING') return false;
        throw e;
      },
    );
    if (!allowed) return undefined;
    const q = await this.d.quotes.get(tenantId, id);
    const filename = `quote-${safe(q.name ?? id)}.pdf`;
    const earlier = await this.d.sentPdfs.key(tenantId, id);
    if (earlier) return { filename, bytes: await read(this.d.objects, earlier) };
    const bytes = await this.render(tenantId, q);
    const key = `${tenantId}/documents/quote-${id}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.pdf`;
    await this.d.objects.put(key, bytes, { contentType: 'application/pdf' });
    const kept = await this.d.sentPdfs.keep(tenantId, id, key);
    if (kept === key) return { filename, bytes };
    // Another send stored its document first: that one is the quote's, this copy goes.
    await this.d.objects.delete(key).catch(() => undefined);
    return { filename, bytes: await read(this.d.objects, kept) };
  }

  private async quoteFile(tenantId: string, id: string): Promise<PdfFile> {
    const q = await this.d.quotes.get(tenantId, id);
    const filename = `quote-${safe(q.name ?? id)}.pdf`;
    const key = await this.d.sentPdfs.key(tenantId, id);
    // A stored document lost from storage is drawn again rather than refused.
    const stored = key ? await read(this.d.objects, key).catch(() => null) : null;
    return { filename, bytes: stored ?? (await this.render(tenantId, q)) };
  }

  private async render(tenantId: string, q: Awaited<ReturnType<QuotesService['get']>>): Promise<Buffer> {
    const brand = await withTenant(this.d.db, tenantId, (tx) => documentBrand(tx, this.d.objects, tenantId));
    const validUntil = new Date(Date.parse(q.created_at) + this.d.quoteValidDays * 86_400_000).toISOString();
    return renderQuotePdf(brand, q, validUntil);
  }

  /** The job's report, for whoever may read the job (office roles, or the job's own technician). */
  async jobReport(p: Principal, id: string): Promise<PdfFile> {
    const job = await this.d.jobs.get(p, id);
    await this.gate(p.tenantId);
    const brand = await withTenant(this.d.db, p.tenantId, (tx) => documentBrand(tx, this.d.objects, p.tenantId));
    const image = async (key: string, label: string, at: string, png: boolean): Promise<ReportImage> => {
      const bytes = await read(this.d.objects, key)
        .then((b) => {
          // Photos arrive in whatever the phone made: made a bounded JPEG (or PNG for the signature's ink).
          const img = sharp(b, { limitInputPixels: 40_000_000 })
            .rotate()
            .resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true });
          return png ? img.png().toBuffer() : img.jpeg({ quality: 80 }).toBuffer();
        })
        .catch(() => null);
      return { label, at, bytes };
    };
    const photos = await Promise.all(job.photos.map((f) => image(f.key, kindLabel(f.kind), f.at, false)));
    const signature = job.signature ? await image(job.signature.key, 'Signature', job.signature.at, true) : null;
    const bytes = await renderJobReportPdf(brand, job, { photos, signature });
    return { filename: `job-report-${safe(job.name)}.pdf`, bytes };
  }
}
