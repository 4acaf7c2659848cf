/**
 * The tenant's payments settings (docs/payments.md, "Connecting a tenant's account", "Deposit rule"):
 * its connected account at the payments provider, made once and onboarded on the provider's pages,
 * and the deposit it asks when a customer accepts a quote (default 50 %). Every change is audited.
 */
import type { DepositRule, PaymentsConnectOutcome, PaymentsView } from '@platform/contracts';
import { type Db, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';
import { isPaymentsError, type PaymentsApi } from '@platform/providers';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import {
  findDepositRule,
  findPaymentAccount,
  insertPaymentAccount,
  type PaymentAccountRow,
  saveDepositRule,
  updatePaymentAccountState,
} from './payments.repo.js';

export const DEFAULT_DEPOSIT_RULE: DepositRule = { kind: 'percent', percent: 50 };

export interface Actor {
  principal: Principal;
  ip?: string;
}

export interface PaymentSettingsParts {
  /** Undefined when the platform has no payments provider configured. */
  api: PaymentsApi | undefined;
  audit: AuditLog;
  /** The console's Payments screen on the tenant's own host (onboarding comes back there). */
  screenUrl(tenantId: string): Promise<string>;
  currency(tenantId: string): Promise<string>;
  /** The rule of a tenant that never set one (QUOTE_DEPOSIT_PERCENT); DEFAULT_DEPOSIT_RULE when absent. */
  defaultRule?: DepositRule;
}

const notConfigured = () =>
  new AppError('PAYMENTS_NOT_CONFIGURED', 'Card payments are not set up on this platform yet.');

/** A provider failure, named without its message (which may echo request details). */
const providerFailed = (e: unknown) =>
  new AppError('PAYMENTS_PROVIDER_FAILED', 'The payments provider did not answer as expected; try again.', {
    cause: e,
    ...(isPaymentsError(e) ? { details: { provider_error: e.kind } } : {}),
  });

export class PaymentSettingsService {
  constructor(
    private readonly db: Db,
    private readonly parts: PaymentSettingsParts,
  ) {}

  /**
   * The account and the rule. While onboarding is unfinished the provider is asked once per read, so
   * the owner coming back from its pages sees the state even before its webhook has arrived.
   */
  async view(tenantId: string): Promise<PaymentsView> {
    let account = await withTenant(this.db, tenantId, (tx) => findPaymentAccount(tx, tenantId));
    if (account && !account.charges_enabled && this.parts.api) account = await this.refresh(tenantId, account);
    const rule = await this.depositRule(tenantId);
    return {
      available: this.parts.api !== undefined,
      account: accountView(account),
      deposit_rule: rule,
      currency: await this.parts.currency(tenantId),
    };
  }

  /** The rule the deposit on acceptance uses (the default when the tenant never set one). */
  async depositRule(tenantId: string): Promise<DepositRule> {
    const row = await withTenant(this.db, tenantId, (tx) => findDepositRule(tx, tenantId));
    if (!row) return this.parts.defaultRule ?? DEFAULT_DEPOSIT_RULE;
    if (row.kind === 'percent') return { kind: 'percent', percent: row.percent! };
    if (row.kind === 'fixed') return { kind: 'fixed', amount_minor: row.amount_minor! };
    return { kind: 'none' };
  }

  /**
   * Makes the tenant's connected account the first time (later calls reuse it) and answers a fresh
   * onboarding link. Two first clicks racing may each make an account at the provider; the first
   * stored wins and the other is never used.
   */
  async connect(a: Actor): Promise<PaymentsConnectOutcome> {
    const api = this.parts.api;
    if (!api) throw notConfigured();
    const tenantId = a.principal.tenantId;
    let account = await withTenant(this.db, tenantId, (tx) => findPaymentAccount(tx, tenantId));
    if (!account) {
      const made = await api
        .createAccount({ tenantId, type: 'express', email: a.principal.email })
        .catch((e: unknown) => Promise.reject(providerFailed(e)));
      account = await withTenant(this.db, tenantId, (tx) => insertPaymentAccount(tx, tenantId, made));
      await this.record(a, 'payments.account.create', { account_id: account.account_id });
    }
    const screen = await this.parts.screenUrl(tenantId);
    const link = await api
      .createOnboardingLink({ accountId: account.account_id, returnUrl: screen, refreshUrl: `${screen}?refresh=1` })
      .catch((e: unknown) => Promise.reject(providerFailed(e)));
    await this.record(a, 'payments.onboarding.start', { account_id: account.account_id });
    return { onboarding_url: link.url, account_id: account.account_id };
  }

  async setDepositRule(a: Actor, rule: DepositRule): Promise<PaymentsView> {
    const tenantId = a.principal.tenantId;
    await withTenant(this.db, tenantId, (tx) =>
      saveDepositRule(tx, tenantId, {
        kind: rule.kind,
        percent: rule.kind === 'percent' ? rule.percent : null,
        amount_minor: rule.kind === 'fixed' ? rule.amount_minor : null,
      }),
    );
    await this.record(a, 'payments.deposit_rule.set', { ...rule });
    return this.view(tenantId);
  }

  /** On a provider failure the stored state stands (the webhook will bring the change). */
  private async refresh(tenantId: string, row: PaymentAccountRow): Promise<PaymentAccountRow> {
    const now = await this.parts.api!.getAccount(row.account_id).catch(() => undefined);
    if (!now || (now.chargesEnabled === row.charges_enabled && now.detailsSubmitted === row.details_submitted))
      return row;
    return withTenant(this.db, tenantId, async (tx) => {
      await updatePaymentAccountState(tx, tenantId, row.account_id, now);
      return (await findPaymentAccount(tx, tenantId))!;
    });
  }

  private record(a: Actor, action: string, detail: Record<string, unknown>): Promise<void> {
    return this.parts.audit.recordUserAction(this.db, a.principal, {
      action,
      target: { type: 'payments', id: a.principal.tenantId },
      ...(a.ip ? { ip: a.ip } : {}),
      detail,
    });
  }
}

function accountView(row: PaymentAccountRow | undefined): PaymentsView['account'] {
  if (!row)
    return {
      state: 'not_connected',
      account_id: null,
      charges_enabled: false,
      details_submitted: false,
      connected_at: null,
      updated_at: null,
    };
  return {
    state: row.charges_enabled ? 'connected' : 'onboarding',
    account_id: row.account_id,
    charges_enabled: row.charges_enabled,
    details_submitted: row.details_submitted,
    connected_at: new Date(row.connected_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}
