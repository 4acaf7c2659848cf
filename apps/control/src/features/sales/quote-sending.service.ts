/**
 * Sending a quote to the customer: a portal link on the tenant's primary host (refused when the
 * tenant turned the portal off), emailed to the customer (template `portal_quote_link`, through the
 * email outbox) and texted when the customer has a phone and the tenant an SMS line (the `sms.send`
 * outbox job the worker delivers). The email, the text and the send's record commit together, keyed
 * by the request's Idempotency-Key: a retry emails and texts nothing again and answers what was sent
 * with a fresh copyable link (the token of the first is not kept). Revoking ends every link.
 */
import { createHash } from 'node:crypto';

import type { QuoteSendAnswer } from '@platform/contracts/quote.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import { queueSmsIn } from '@platform/integrations';
import { AppError, type Clock, newId } from '@platform/kernel';
import { portalEnabled, primaryHost } from '@platform/tenancy';
import { enqueueWebhookEvent } from '@platform/webhooks';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { Recipient } from '../messages/message-scheduler.js';
import type { PortalLinks } from '../portal/portal-links.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as sends from './quote-sends.repo.js';
import * as repo from './quotes.repo.js';
import { notFound, type QuotesService, userActor } from './quotes.service.js';
import * as erpSide from './sales-erp.js';

export interface QuoteSendingOptions {
  tenantsHost: string;
  portalLinkDays: number;
  /** A tenant host's public origin (TenantPublicOrigins): the scheme and port that serve it. */
  origin: (host: string) => string;
  /**
   * The quote's PDF as it is sent: rendered and stored at the first send (DocumentsService.sentQuote),
   * attached to the email; undefined when the plan has none.
   */
  document?: (tenantId: string, quoteId: string) => Promise<{ filename: string; bytes: Buffer } | undefined>;
  /** Told of a first send in its transaction: the quote follow-up (the messages feature, docs/messages.md). */
  followUp?: (tx: Queryable, tenantId: string, q: SentQuote) => Promise<void>;
}

/** A quote as the customer was sent it. */
export interface SentQuote extends Recipient {
  quoteId: string;
  number: string;
  link: string;
}

/** The tenant's SMS line (E.164 digits) and the phone normaliser, from the integration settings. */
export interface QuoteTexting {
  lineOf(tenantId: string): Promise<string | undefined>;
  normalize(raw: string): string | undefined;
}

/** Moves the quote's lead along the pipeline (the CRM feature); never fails the send. */
export type LeadStageMover = (tenantId: string, leadId: number, event: 'sent' | 'accepted') => Promise<void>;

const EMAIL_RE = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,255}$/;
const keyDigest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 32);

export class QuoteSending {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly erps: TenantErps,
    private readonly quotes: QuotesService,
    private readonly links: PortalLinks,
    private readonly audit: AuditLog,
    private readonly email: EmailOutboxService,
    private readonly texting: QuoteTexting,
    private readonly opts: QuoteSendingOptions,
    private readonly moveLead: LeadStageMover = async () => undefined,
  ) {}

  async send(p: Principal, id: string, idempotencyKey?: string, ip?: string): Promise<QuoteSendAnswer> {
    const q = await this.quotes.withOrder(p, id);
    if (!q.sale_order_id)
      throw new AppError('QUOTE_STATE_CONFLICT', 'The quote is not in the ERP yet; retry its creation.');
    if (q.state !== 'draft' && q.state !== 'sent')
      throw new AppError('QUOTE_STATE_CONFLICT', `The quote is ${q.state}; only an open quotation can be sent.`, {
        details: { state: q.state },
      });
    const key = idempotencyKey ?? newId();
    const email = q.customer?.email && EMAIL_RE.test(q.customer.email) ? q.customer.email : null;
    const phone = q.customer?.phone ? this.texting.normalize(q.customer.phone) : undefined;
    const line = phone ? await this.texting.lineOf(p.tenantId) : undefined;
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.opts.portalLinkDays * 86_400_000);
    // A document that cannot be drawn now must not stop the quote reaching the customer by its link.
    const pdf = await this.opts.document?.(p.tenantId, id).catch(() => undefined);
    const attachments = pdf
      ? [{ filename: pdf.filename, contentType: 'application/pdf', contentBase64: pdf.bytes.toString('base64') }]
      : undefined;
    const out = await withTenant(this.db, p.tenantId, async (tx) => {
      if (!(await portalEnabled(tx, p.tenantId)))
        throw new AppError('PORTAL_DISABLED', 'The customer portal is turned off in the company settings.');
      const l = await this.links.issue(tx, { tenantId: p.tenantId, quoteId: id, createdBy: p.userId, expiresAt });
      const host = await primaryHost(tx, p.tenantId);
      const url = `${this.opts.origin(host.domain ?? `${host.slug}.${this.opts.tenantsHost}`)}/portal/quote/${l.token}`;
      const send = { send_key: key, portal_link_id: l.id, emailed_to: email, texted_to: phone && line ? phone : null };
      const fresh = await sends.insertSend(tx, { ...send, tenant_id: p.tenantId, quote_id: id, created_by: p.userId });
      const made = fresh ? send : ((await sends.sendByKey(tx, p.tenantId, id, key)) ?? send);
      if (fresh && send.emailed_to)
        await this.email.enqueueIn(tx, {
          tenantId: p.tenantId,
          template: 'portal_quote_link',
          to: { address: send.emailed_to, ...(q.customer?.name ? { name: q.customer.name } : {}) },
          data: {
            customerName: q.customer?.name || q.partner?.name || 'there',
            quoteNumber: q.name ?? 'quote',
            portalUrl: url,
            expiresOn: expiresAt.toISOString().slice(0, 10),
            pdfAttached: Boolean(attachments),
          },
          key: `quote-send:${id}:${keyDigest(key)}`,
          ...(attachments ? { attachments } : {}),
        });
      if (fresh && send.texted_to && line)
        await queueSmsIn(tx, {
          tenantId: p.tenantId,
          from: line,
          to: send.texted_to,
          body: `Your quote ${q.name ?? ''} is ready: ${url}`,
        });
      if (fresh)
        await this.opts.followUp?.(tx, p.tenantId, {
          ...{ quoteId: id, number: q.name ?? '', link: url, partnerId: q.partner?.id ?? null },
          ...{ saleOrderId: q.sale_order_id, name: q.customer?.name ?? q.partner?.name ?? null },
          ...{ phone: q.customer?.phone ?? null, email },
        });
      // One event per send (a retried request under the same key is the same send).
      if (fresh)
        await enqueueWebhookEvent(tx, p.tenantId, {
          type: 'quote.sent',
          eventKey: `quote.sent:${id}:${keyDigest(key)}`,
          occurredAt: now.toISOString(),
          data: {
            quote_id: id,
            quote_number: q.name ?? null,
            sale_order_id: q.sale_order_id,
            lead_id: q.lead_id ?? null,
            emailed: Boolean(send.emailed_to),
            texted: Boolean(send.texted_to),
            expires_at: expiresAt.toISOString(),
          },
        });
      await this.audit.record(tx, {
        ...userActor(p, ip),
        action: 'sales.quote.send',
        target: { type: 'quote', id },
        detail: {
          portal_link_id: l.id,
          expires_at: expiresAt.toISOString(),
          emailed: Boolean(fresh && send.emailed_to),
          texted: Boolean(fresh && send.texted_to),
          repeated: !fresh,
        },
      });
      return { url, token: l.token, made, fresh };
    });
    // The link is made and answered even if the ERP cannot mark the quotation sent just now.
    const erp = await this.erps.forTenant(p.tenantId);
    await erpSide.markSent(erp, q.sale_order_id).catch(() => undefined);
    if (q.lead_id) await this.moveLead(p.tenantId, q.lead_id, 'sent').catch(() => undefined);
    return {
      portal_url: out.url,
      token: out.token,
      expires_at: expiresAt.toISOString(),
      emailed_to: out.made.emailed_to,
      texted_to: out.made.texted_to,
      repeated: !out.fresh,
    };
  }

  async revokeLinks(p: Principal, id: string, ip?: string) {
    return withTenant(this.db, p.tenantId, async (tx) => {
      if (!(await repo.quoteById(tx, p.tenantId, id))) throw notFound();
      const revoked = await this.links.revokeAll(tx, p.tenantId, id, this.clock.now());
      await this.audit.record(tx, {
        ...userActor(p, ip),
        action: 'sales.quote.revoke_links',
        target: { type: 'quote', id },
        detail: { revoked },
      });
      return { revoked };
    });
  }
}
