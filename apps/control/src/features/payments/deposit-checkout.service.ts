/**
 * The deposit on acceptance (docs/payments.md): once the customer has accepted a quote on the portal,
 * a checkout for the deposit on the tenant's own connected account. The amount and currency are the
 * server's (the tenant's rule on the ERP total), never the browser's; one session per quote, kept in
 * `deposit_payments`, so a second click (or twenty at once) answers the same page.
 */
import type { DepositState } from '@platform/contracts/quote.js';
import { type Db, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';
import { isPaymentsError, type PaymentsApi } from '@platform/providers';

import type { PortalLinks } from '../portal/portal-links.js';
import type { PortalLinkRow } from '../portal/portal-links.repo.js';
import type { QuotesService } from '../sales/quotes.service.js';
import { type DepositRow, findDeposit, insertDeposit } from './deposit.repo.js';
import { depositOf } from './deposit-amount.js';
import { payDeposit } from './deposit-paid.js';
import type { PaymentSettingsService } from './payment-settings.service.js';
import { findPaymentAccount } from './payments.repo.js';

export interface DepositCheckoutParts {
  api: PaymentsApi | undefined;
  settings: PaymentSettingsService;
  quotes: QuotesService;
  links: PortalLinks;
  /** The portal's live link of the token on the host's tenant (PortalService.link): the one 404 otherwise. */
  link(hostTenant: string | undefined, token: string): Promise<PortalLinkRow>;
  currency(tenantId: string): Promise<string>;
  /** The quote's portal page on the tenant's own host. */
  portalUrl(tenantId: string, token: string): Promise<string>;
}

type NotDue = 'not_accepted' | 'no_deposit' | 'paid' | 'office';

const notDue = (reason: NotDue) =>
  new AppError('DEPOSIT_NOT_DUE', 'No card deposit is due on this quote.', { details: { reason } });

export class DepositCheckoutService {
  constructor(
    private readonly db: Db,
    private readonly parts: DepositCheckoutParts,
  ) {}

  /** What the portal shows about the deposit of a quote, from the stored row and the tenant's account. */
  async state(tenantId: string, quoteId: string, deposit: number): Promise<DepositState> {
    if (deposit <= 0) return 'none';
    const { row, account } = await withTenant(this.db, tenantId, async (tx) => ({
      row: await findDeposit(tx, tenantId, quoteId),
      account: await findPaymentAccount(tx, tenantId),
    }));
    if (row?.status === 'paid') return 'paid';
    if (row && (await this.paidMeanwhile(tenantId, row))) return 'paid';
    return this.parts.api && account?.charges_enabled ? 'due' : 'office';
  }

  /**
   * A customer back from the provider's page before its webhook: the session is re-read and, when
   * paid, recorded through the webhook's own path (payDeposit), so whichever comes first records it
   * and the other finds it done. A provider that does not answer leaves the deposit due.
   */
  private async paidMeanwhile(tenantId: string, row: DepositRow): Promise<boolean> {
    const api = this.parts.api;
    if (!api || row.method !== 'card' || !row.account_id || !row.session_id) return false;
    const session = await api.getCheckout(row.account_id, row.session_id).catch(() => null);
    if (session?.status !== 'complete' || session.paymentStatus !== 'paid') return false;
    const ignored = await withTenant(this.db, tenantId, (tx) => payDeposit(tx, tenantId, session));
    return ignored === undefined;
  }

  /** The checkout page of the quote's deposit: made once, the same page on every later call. */
  async checkout(hostTenant: string | undefined, token: string): Promise<{ url: string; session_id: string }> {
    const l = await this.parts.link(hostTenant, token);
    const tenantId = l.tenant_id;
    const { accepted, row, account } = await withTenant(this.db, tenantId, async (tx) => ({
      accepted: await this.parts.links.acceptance(tx, tenantId, l.quote_id),
      row: await findDeposit(tx, tenantId, l.quote_id),
      account: await findPaymentAccount(tx, tenantId),
    }));
    if (!accepted) throw notDue('not_accepted');
    if (row?.status === 'paid') throw notDue('paid');
    if (row?.checkout_url && row.session_id) return { url: row.checkout_url, session_id: row.session_id };
    const api = this.parts.api;
    if (!api || !account?.charges_enabled) throw notDue('office');
    const q = await this.parts.quotes.get(tenantId, l.quote_id);
    const [rule, currency] = await Promise.all([
      this.parts.settings.depositRule(tenantId),
      this.parts.currency(tenantId),
    ]);
    const { minor } = depositOf(rule, q.amount_total, currency);
    if (minor <= 0) throw notDue('no_deposit');
    const page = await this.parts.portalUrl(tenantId, token);
    const session = await api
      .createCheckout({
        accountId: account.account_id,
        amountMinor: minor,
        currency,
        description: `Deposit for quote ${q.name ?? ''}`.trim(),
        metadata: { tenantId, kind: 'deposit', ref: l.quote_id },
        successUrl: `${page}?deposit=paid`,
        cancelUrl: `${page}?deposit=cancelled`,
        // Clicks racing before the row exists ask the provider with one key: one session for all.
        idempotencyKey: `deposit:${tenantId}:${l.quote_id}:${currency}:${minor}`,
      })
      .catch((e: unknown) => {
        throw new AppError('PAYMENTS_PROVIDER_FAILED', 'The payments provider did not answer; try again.', {
          cause: e,
          ...(isPaymentsError(e) ? { details: { provider_error: e.kind } } : {}),
        });
      });
    if (!session.url) throw new AppError('PAYMENTS_PROVIDER_FAILED', 'The payments provider gave no page.');
    const stored = await withTenant(this.db, tenantId, (tx) =>
      insertDeposit(tx, {
        tenant_id: tenantId,
        quote_id: l.quote_id,
        account_id: account.account_id,
        session_id: session.sessionId,
        checkout_url: session.url!,
        amount_minor: minor,
        currency,
      }),
    );
    return { url: stored!.checkout_url!, session_id: stored!.session_id! };
  }
}
