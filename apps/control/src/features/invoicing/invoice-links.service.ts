/**
 * The customer's side of the final invoice (docs/payments.md, "Final invoice"): the emailed pay link
 * (an expiring token, only its SHA-256 kept), the portal page it opens, and "Pay": a checkout on the
 * tenant's connected account for the invoice's current ERP residual, set by the server. One session
 * per invoice and amount: clicks racing ask the provider under one idempotency key.
 */
import { createHash, randomBytes } from 'node:crypto';

import type { InvoiceSendAnswer, PortalInvoiceAnswer } from '@platform/contracts/invoicing.js';
import { formatMoney, toMinor } from '@platform/contracts/money.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import { AppError, type Clock, newId, type WriteAnswer } from '@platform/kernel';
import { isPaymentsError, type PaymentsApi } from '@platform/providers';
import { tenantBranding } from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { PdfFile } from '../documents/pdf-reply.js';
import type { Recipient } from '../messages/message-scheduler.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import * as repo from './invoicing.repo.js';
import { actorOf, type InvoicingService, noInvoice, notPayable } from './invoicing.service.js';
import { partnerEmail, readCustomerInvoice } from './invoicing-erp.js';

export interface InvoiceLinksParts {
  db: Db;
  clock: Clock;
  erps: TenantErps;
  audit: AuditLog;
  email: Pick<EmailOutboxService, 'enqueueIn'>;
  invoices: Pick<InvoicingService, 'summary'>;
  currency(tenantId: string): Promise<string>;
  api: PaymentsApi | undefined;
  /** The tenant's connected account when it can take card payments now. */
  account(tenantId: string): Promise<string | undefined>;
  /** The invoice's PDF (documents feature), attached when the plan has it. */
  pdf(p: Principal, invoiceId: number): Promise<PdfFile>;
  /** The tenant's own origin (scheme, host and port of its public host). */
  origin(tenantId: string): Promise<string>;
  linkDays: number;
  /** Told of a pay link sent, in its transaction: the unpaid invoice's reminder (docs/messages.md). */
  remind?: (tx: Queryable, tenantId: string, i: UnpaidInvoice) => Promise<void>;
}

/** An invoice whose pay link was sent: what its reminder says and to whom. */
export interface UnpaidInvoice extends Recipient {
  invoiceId: number;
  number: string;
  amountDue: string;
  dueDate: string;
  link: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const invalid = () =>
  new AppError('PORTAL_LINK_INVALID', 'This link is not valid any more. Ask the company for a new one.');
export const PAY_PAGE_PATH = '/portal/invoice';

export class InvoiceLinks {
  constructor(private readonly d: InvoiceLinksParts) {}

  /** Emails the customer a fresh pay link (the invoice's PDF attached when the plan draws it). */
  async send(p: Principal, invoiceId: number, key?: string): Promise<WriteAnswer<InvoiceSendAnswer>> {
    const route = `invoicing:send:${invoiceId}`;
    const fp = fingerprint('invoice-send', { invoiceId });
    const stored = key && (await withTenant(this.d.db, p.tenantId, (tx) => findAnswer(tx, p.tenantId, route, key)));
    if (stored) return replayStored<InvoiceSendAnswer>(stored, fp);
    const erp = await this.d.erps.forTenant(p.tenantId);
    const m = await readCustomerInvoice(erp, invoiceId);
    if (!m) throw noInvoice();
    if (m.state !== 'posted') throw notPayable('not_posted', 'Only a posted invoice can be sent.');
    const s = await this.d.invoices.summary(p.tenantId, invoiceId);
    if (s.residual_minor <= 0) throw notPayable('paid', 'Nothing is left to pay on this invoice.');
    const to = await partnerEmail(erp, s.customer.id);
    if (!to) throw notPayable('no_email', 'The customer has no email address.');
    // A document that cannot be drawn must not keep the pay link from the customer.
    const pdf = await this.d.pdf(p, invoiceId).catch(() => undefined);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.d.clock.now().getTime() + this.d.linkDays * 86_400_000);
    const url = `${await this.d.origin(p.tenantId)}${PAY_PAGE_PATH}/${token}`;
    const body = { invoice_id: invoiceId, emailed_to: to, expires_at: expiresAt.toISOString() };
    await withTenant(this.d.db, p.tenantId, async (tx) => {
      await repo.insertPayLink(tx, { tenantId: p.tenantId, hash: hash(token), invoiceId, emailedTo: to, expiresAt });
      await this.d.email.enqueueIn(tx, {
        tenantId: p.tenantId,
        template: 'invoice_pay_link',
        to: { address: to, ...(s.customer.name ? { name: s.customer.name } : {}) },
        data: {
          customerName: s.customer.name || 'there',
          invoiceNumber: s.number || 'invoice',
          amountDue: formatMoney(s.residual_minor, s.currency),
          payUrl: url,
          expiresOn: expiresAt.toISOString().slice(0, 10),
          pdfAttached: Boolean(pdf),
        },
        key: `invoice-send:${invoiceId}:${hash(key ?? newId()).slice(0, 32)}`,
        ...(pdf
          ? {
              attachments: [
                { filename: pdf.filename, contentType: 'application/pdf', contentBase64: pdf.bytes.toString('base64') },
              ],
            }
          : {}),
      });
      await this.d.audit.record(tx, {
        tenantId: p.tenantId,
        actor: actorOf(p),
        action: 'invoicing.link.send',
        target: { type: 'invoice', id: invoiceId },
        detail: { expires_at: body.expires_at },
      });
      await this.d.remind?.(tx, p.tenantId, {
        ...{ invoiceId, number: s.number || 'invoice', amountDue: formatMoney(s.residual_minor, s.currency) },
        ...{ dueDate: s.due_date ?? this.d.clock.now().toISOString().slice(0, 10), link: url },
        ...{ partnerId: s.customer.id, saleOrderId: null, name: s.customer.name, phone: null, email: to },
      });
      if (key) await storeAnswer(tx, p.tenantId, route, key, { fingerprint: fp, outcome: 'created', response: body });
    });
    return { outcome: 'created', body, replayed: false };
  }

  /** The invoice a live link on its own tenant's host names; anything else is the portal's one 404. */
  private async link(hostTenant: string | undefined, token: string): Promise<{ tenantId: string; invoiceId: number }> {
    if (!hostTenant || !UUID.test(hostTenant) || !TOKEN.test(token)) throw invalid();
    const now = this.d.clock.now();
    const id = await withTenant(this.d.db, hostTenant, (tx) => repo.livePayLink(tx, hostTenant, hash(token), now));
    if (!id) throw invalid();
    return { tenantId: hostTenant, invoiceId: id };
  }

  async view(hostTenant: string | undefined, token: string): Promise<PortalInvoiceAnswer> {
    const l = await this.link(hostTenant, token);
    const erp = await this.d.erps.forTenant(l.tenantId);
    // A search: an invoice deleted in the ERP since is the same 404 as any dead link.
    const [m] = await erp.searchRead('account.move', [['id', '=', l.invoiceId]], {
      fields: ['state', 'invoice_line_ids', 'amount_untaxed', 'amount_tax', 'amount_total'],
    });
    if (!m || m.state !== 'posted') throw invalid();
    const s = await this.d.invoices.summary(l.tenantId, l.invoiceId);
    const cur = s.currency;
    const ids = Array.isArray(m.invoice_line_ids) ? (m.invoice_line_ids as number[]) : [];
    const rows = ids.length
      ? await erp.read('account.move.line', ids, ['name', 'quantity', 'price_subtotal', 'price_total', 'sequence'])
      : [];
    // Down payments come back on the final invoice as negative quantities: the deposit deducted.
    const lines = rows.map((r) => ({
      description: typeof r.name === 'string' ? r.name : '',
      quantity: Number(r.quantity ?? 0),
      subtotal_minor: toMinor(Number(r.price_subtotal ?? 0), cur),
      down_payment: Number(r.quantity ?? 0) < 0,
    }));
    const deducted = rows.filter((r) => Number(r.quantity ?? 0) < 0).reduce((n, r) => n + Number(r.price_total), 0);
    const [{ brand, received }, account] = await Promise.all([
      withTenant(this.d.db, l.tenantId, async (tx) => ({
        brand: await tenantBranding(tx, l.tenantId),
        received: await repo.checkoutFor(tx, l.tenantId, l.invoiceId, s.residual_minor, cur),
      })),
      this.d.account(l.tenantId),
    ]);
    // Paid at the provider, not yet registered in the ERP by the worker: no second "Pay".
    const payState =
      s.residual_minor <= 0
        ? 'paid'
        : received?.status === 'paid'
          ? 'processing'
          : this.d.api && account
            ? 'due'
            : 'office';
    return {
      invoice: {
        number: s.number,
        invoice_date: s.invoice_date,
        due_date: s.due_date,
        currency: cur,
        lines,
        untaxed_minor: toMinor(Number(m.amount_untaxed ?? 0), cur),
        tax_minor: toMinor(Number(m.amount_tax ?? 0), cur),
        total_minor: s.total_minor,
        deposit_deducted_minor: toMinor(Math.abs(deducted), cur),
        residual_minor: s.residual_minor,
        pay_state: payState,
      },
      company: { name: brand.company_name },
    };
  }

  /** "Pay": the provider's page for the current residual (the same page for every click at that amount). */
  async checkout(hostTenant: string | undefined, token: string): Promise<{ url: string; session_id: string }> {
    const l = await this.link(hostTenant, token);
    const s = await this.d.invoices.summary(l.tenantId, l.invoiceId);
    if (s.residual_minor <= 0) throw notPayable('paid', 'Nothing is left to pay on this invoice.');
    const account = await this.d.account(l.tenantId);
    const api = this.d.api;
    if (!api || !account) throw notPayable('office', 'The company takes no card payments; it will contact you.');
    const amount = s.residual_minor;
    const cur = s.currency;
    const known = await withTenant(this.d.db, l.tenantId, (tx) =>
      repo.checkoutFor(tx, l.tenantId, l.invoiceId, amount, cur),
    );
    if (known?.status === 'paid') throw notPayable('paid', 'This payment is received and being recorded.');
    if (known) return { url: known.checkout_url, session_id: known.session_id };
    const page = `${await this.d.origin(l.tenantId)}${PAY_PAGE_PATH}/${token}`;
    const session = await api
      .createCheckout({
        accountId: account,
        amountMinor: amount,
        currency: cur,
        description: `Invoice ${s.number}`,
        metadata: { tenantId: l.tenantId, kind: 'invoice', ref: String(l.invoiceId) },
        successUrl: `${page}?payment=paid`,
        cancelUrl: `${page}?payment=cancelled`,
        // Per invoice and residual: racing clicks share one session; a later residual gets its own.
        idempotencyKey: `invoice:${l.tenantId}:${l.invoiceId}:${cur}:${amount}`,
      })
      .catch((e: unknown) => {
        throw new AppError('PAYMENTS_PROVIDER_FAILED', 'The payments provider did not answer; try again.', {
          cause: e,
          ...(isPaymentsError(e) ? { details: { provider_error: e.kind } } : {}),
        });
      });
    if (!session.url) throw new AppError('PAYMENTS_PROVIDER_FAILED', 'The payments provider gave no page.');
    const row = await withTenant(this.d.db, l.tenantId, (tx) =>
      repo.insertCheckout(tx, l.tenantId, {
        session_id: session.sessionId,
        invoice_id: l.invoiceId,
        account_id: account,
        checkout_url: session.url!,
        amount_minor: amount,
        currency: cur,
      }),
    );
    return { url: row!.checkout_url, session_id: row!.session_id };
  }
}
