/**
 * The customer portal's API: a quote seen and acted on through its link's token, on the tenant's
 * own host. Unknown, expired, revoked and other-tenant tokens all get the same PORTAL_LINK_INVALID.
 * Every view and action is audited with the link's id (never the token).
 */
import { createHash } from 'node:crypto';

import type { DepositState, PortalQuoteAnswer } from '@platform/contracts/quote.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import { findAnswer, fingerprint, replayStored, storeAnswer } from '@platform/intake';
import { AppError, type Clock, type WriteAnswer } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';
import { tenantBranding } from '@platform/tenancy';
import { escapeHtml } from '@platform/web/escape-html.js';
import { enqueueWebhookEvent } from '@platform/webhooks';

import type { AuditLog } from '../audit/audit-log.js';
import { enqueueOrderConfirmed } from '../sales/order-confirmed.enqueue.js';
import type { LeadStageMover } from '../sales/quote-sending.service.js';
import type { QuotesService } from '../sales/quotes.service.js';
import { confirmOrder, postNote } from '../sales/sales-erp.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { type CurrencyOf, enqueueOrderWon, orderWon } from './order-won.js';
import { type PortalAction, type PortalLinks } from './portal-links.js';
import type { PortalLinkRow } from './portal-links.repo.js';
import { decodeSignature } from './signature.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalid = () =>
  new AppError('PORTAL_LINK_INVALID', 'This link is not valid any more. Ask the company for a new one.');

export interface PortalOptions {
  signatureMaxBytes: number;
  /** The deposit's state on the portal (DepositCheckoutService.state); `none` without payments. */
  depositState?: (tenantId: string, quoteId: string, deposit: number) => Promise<DepositState>;
}

export class PortalService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly erps: TenantErps,
    private readonly quotes: QuotesService,
    private readonly links: PortalLinks,
    private readonly store: ObjectStore,
    private readonly audit: AuditLog,
    private readonly opts: PortalOptions,
    /** Moves the quote's lead along the pipeline (PipelineService.follow); never fails an acceptance. */
    private readonly moveLead: LeadStageMover = async () => undefined,
    /** The tenant's currency, for the won order's conversion job (order-won.ts). */
    private readonly currencyOf: CurrencyOf = async () => 'USD',
  ) {}

  /** The live link of the token within the host's tenant, allowed to do `action`; else the one 404. */
  async link(hostTenant: string | undefined, token: string, action: PortalAction): Promise<PortalLinkRow> {
    if (!hostTenant || !UUID.test(hostTenant)) throw invalid();
    const l = await withTenant(this.db, hostTenant, (tx) => this.links.find(tx, token, this.clock.now()));
    if (!l || !l.actions.includes(action)) throw invalid();
    return l;
  }

  private record(tx: Queryable, l: PortalLinkRow, action: string, ip?: string, detail: Record<string, unknown> = {}) {
    return this.audit.record(tx, {
      tenantId: l.tenant_id,
      actor: { kind: 'portal', id: l.id },
      action,
      target: { type: 'quote', id: l.quote_id },
      ...(ip ? { ip } : {}),
      detail,
    });
  }

  async view(hostTenant: string | undefined, token: string, ip?: string): Promise<PortalQuoteAnswer> {
    const l = await this.link(hostTenant, token, 'view');
    const q = await this.quotes.get(l.tenant_id, l.quote_id);
    const { brand, accepted } = await withTenant(this.db, l.tenant_id, async (tx) => {
      await this.record(tx, l, 'portal.quote.view', ip);
      // Only after the ERP answered (issue 23: a refused view changes nothing); the first view sticks.
      await this.links.markOpened(tx, l.id, this.clock.now());
      return {
        brand: await tenantBranding(tx, l.tenant_id),
        accepted: await this.links.acceptance(tx, l.tenant_id, l.quote_id),
      };
    });
    return {
      quote: {
        name: q.name,
        state: q.state,
        partner_name: q.partner?.name ?? null,
        lines: q.lines,
        amount_untaxed: q.amount_untaxed,
        amount_tax: q.amount_tax,
        amount_total: q.amount_total,
        deposit: q.deposit,
        deposit_state: (await this.opts.depositState?.(l.tenant_id, l.quote_id, q.deposit)) ?? 'none',
        accepted: accepted ? { name: accepted.accepted_name, at: accepted.accepted_at!.toISOString() } : null,
      },
      link: { expires_at: l.expires_at.toISOString(), actions: l.actions },
      tenant: { branding: brand },
    };
  }

  /**
   * Accepting is idempotent twice over: an Idempotency-Key replays the answer stored with the
   * acceptance (another body under the key is refused), and an accepted quote answers its acceptance.
   */
  async accept(
    hostTenant: string | undefined,
    token: string,
    body: { name: string; signature_png_base64: string },
    key: string | undefined,
    ip?: string,
  ): Promise<WriteAnswer<AcceptedQuote>> {
    const l = await this.link(hostTenant, token, 'accept');
    const route = `portal:accept:${l.id}`;
    const fp = fingerprint('portal-accept', body);
    const stored = key && (await withTenant(this.db, l.tenant_id, (tx) => findAnswer(tx, l.tenant_id, route, key)));
    if (stored) return replayStored<AcceptedQuote>(stored, fp);
    const earlier = await withTenant(this.db, l.tenant_id, (tx) => this.links.acceptance(tx, l.tenant_id, l.quote_id));
    if (earlier) return updated(acceptedAnswer(earlier.accepted_name!, earlier.accepted_at!));
    const png = decodeSignature(body.signature_png_base64, this.opts.signatureMaxBytes);
    const q = await this.quotes.get(l.tenant_id, l.quote_id);
    if (!q.sale_order_id) throw invalid();
    const orderId = q.sale_order_id;
    if (q.state === 'cancel')
      throw new AppError('QUOTE_STATE_CONFLICT', 'This quote was cancelled; contact the company.', {
        details: { state: q.state },
      });
    // Stored before the order is confirmed: an accepted quote always has its signature.
    const signatureKey = `${l.tenant_id}/quotes/${l.quote_id}/signature.png`;
    await this.store.put(signatureKey, png, { contentType: 'image/png' });
    const erp = await this.erps.forTenant(l.tenant_id);
    // A card deposit due: the order is confirmed when it is paid (the deposit's ERP job), not now.
    const depositFirst = (await this.opts.depositState?.(l.tenant_id, l.quote_id, q.deposit)) === 'due';
    if (!depositFirst) await confirmOrder(erp, q.sale_order_id);
    const at = this.clock.now();
    // The ad platforms never fail an acceptance: an order unread is a conversion not sent.
    const won = await orderWon(erp, this.currencyOf, l.tenant_id, q.sale_order_id, at).catch(() => null);
    const answer = await withTenant(this.db, l.tenant_id, async (tx) => {
      await this.links.markAccepted(tx, l.id, { at, name: body.name, signatureKey });
      await this.record(tx, l, 'portal.quote.accept', ip, {
        sale_order_id: q.sale_order_id,
        signature_key: signatureKey,
      });
      // A concurrent acceptance may have been first: the quote's first acceptance is the answer.
      const first = await this.links.acceptance(tx, l.tenant_id, l.quote_id);
      const a = acceptedAnswer(
        first?.accepted_name ?? body.name,
        first?.accepted_at ?? at,
        depositFirst ? q.state : 'sale',
      );
      // Keyed by the quote: a quote is accepted once, however many requests raced to accept it.
      await enqueueWebhookEvent(tx, l.tenant_id, {
        type: 'quote.accepted',
        eventKey: `quote.accepted:${l.quote_id}`,
        occurredAt: (first?.accepted_at ?? at).toISOString(),
        data: {
          quote_id: l.quote_id,
          quote_number: q.name ?? null,
          sale_order_id: q.sale_order_id,
          lead_id: q.lead_id ?? null,
          accepted_by: a.accepted.name,
        },
      });
      if (won) await enqueueOrderWon(tx, l.tenant_id, won);
      // Confirmed now: its supplier orders are drafted (a deposit due drafts them once it is paid).
      if (!depositFirst) await enqueueOrderConfirmed(tx, l.tenant_id, orderId);
      if (key) await storeAnswer(tx, l.tenant_id, route, key, { fingerprint: fp, outcome: 'updated', response: a });
      return a;
    });
    const acceptedNote = `<p>Accepted by ${escapeHtml(body.name)} in the customer portal.</p>`;
    await postNote(erp, q.sale_order_id, acceptedNote, body.name, `<portal-accept-${l.quote_id}@platform>`).catch(
      () => undefined, // the acceptance stands without its chatter line
    );
    if (q.lead_id) await this.moveLead(l.tenant_id, q.lead_id, 'accepted').catch(() => undefined);
    return updated(answer);
  }

  /** The same note through the same link is posted once; an Idempotency-Key also replays the first answer. */
  async requestChanges(
    hostTenant: string | undefined,
    token: string,
    note: string,
    key: string | undefined,
    ip?: string,
  ) {
    const l = await this.link(hostTenant, token, 'request_changes');
    const route = `portal:request-changes:${l.id}`;
    const fp = fingerprint('portal-request-changes', { note });
    const stored = key && (await withTenant(this.db, l.tenant_id, (tx) => findAnswer(tx, l.tenant_id, route, key)));
    if (stored) return replayStored<{ status: 'received' }>(stored, fp).body;
    const q = await this.quotes.get(l.tenant_id, l.quote_id);
    if (!q.sale_order_id) throw invalid();
    const erp = await this.erps.forTenant(l.tenant_id);
    const html = `<p><strong>Change request from the customer portal</strong></p><p>${escapeHtml(note).replace(/\n/g, '<br>')}</p>`;
    // The same note through the same link is a retry (a lost answer, a double click): posted once.
    const once = `<portal-changes-${l.id}-${createHash('sha256').update(note).digest('hex').slice(0, 32)}@platform>`;
    const messageId = await postNote(erp, q.sale_order_id, html, q.partner?.name ?? 'Customer', once);
    const received = { status: 'received' as const };
    await withTenant(this.db, l.tenant_id, async (tx) => {
      await this.record(tx, l, 'portal.quote.request_changes', ip, { message_id: messageId, length: note.length });
      if (key)
        await storeAnswer(tx, l.tenant_id, route, key, { fingerprint: fp, outcome: 'created', response: received });
    });
    return received;
  }
}

export interface AcceptedQuote {
  status: 'accepted';
  state: string;
  accepted: { name: string; at: string };
}

/** `state` is the order's: `sale` once confirmed, still the quote's while its deposit is due. */
function acceptedAnswer(name: string, at: Date, state = 'sale'): AcceptedQuote {
  return { status: 'accepted', state, accepted: { name, at: at.toISOString() } };
}

const updated = (body: AcceptedQuote): WriteAnswer<AcceptedQuote> => ({ outcome: 'updated', body, replayed: false });
