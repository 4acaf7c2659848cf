/** Builds the accounting services over the platform database and the provider's adapters (picked by the composition root). */
import type { Db } from '@platform/db';
import { RateLimiter } from '@platform/http-kit';
import { type Clock, systemClock } from '@platform/kernel';
import type { AccountingAdapters } from '@platform/providers';

import type { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import { AccountingAttention } from './accounting-attention.js';
import { AccountingCalls } from './accounting-calls.js';
import { AccountingCheck } from './accounting-check.js';
import { AccountingConnectService } from './accounting-connect.service.js';
import { AccountingContacts } from './accounting-contacts.js';
import { AccountingMoneyOutService } from './accounting-money-out.service.js';
import { AccountingPaymentsService } from './accounting-reconcile.service.js';
import { AccountingResidualAudit } from './accounting-residual-audit.service.js';
import { AccountingSyncService } from './accounting-sync.service.js';
import { AccountingTaxMapping } from './accounting-tax-mapping.service.js';
import { AccountingTokens } from './accounting-tokens.js';
import { AccountingWebhookService } from './accounting-webhook.service.js';

/** The provider's base URLs, as configured (the composition root builds the adapters from them). */
export interface AccountingUrls {
  loginUrl: string;
  identityUrl: string;
  apiUrl: string;
}

export interface AccountingServices {
  tokens: AccountingTokens;
  calls: AccountingCalls;
  connect: AccountingConnectService;
  sync: AccountingSyncService;
  webhook: AccountingWebhookService;
  payments: AccountingPaymentsService;
  /** ERP payments, credit notes and refunds sent to the provider. */
  moneyOut: AccountingMoneyOutService;
  /** The periodic reconciliation of residuals (lost notices). */
  audit: AccountingResidualAudit;
  attention: AccountingAttention;
  /** The console's "Send a test": one read with the tenant's grant. */
  check: AccountingCheck;
  /** The console's tax mapping (ERP taxes → the provider's tax types). */
  taxMapping: AccountingTaxMapping;
}

export function createAccountingServices(
  db: Db,
  settings: IntegrationSettingsService,
  adapters: AccountingAdapters,
  opts: { onQueued?: () => void; clock?: Clock; limiter?: RateLimiter } = {},
): AccountingServices {
  const clock = opts.clock ?? systemClock;
  const { oauth, api } = adapters;
  const tokens = new AccountingTokens(db, settings, oauth, clock);
  const calls = new AccountingCalls(tokens, opts.limiter ?? new RateLimiter(db, clock));
  const attention = new AccountingAttention(db);
  const contacts = new AccountingContacts(db, api, calls);
  const moneyOut = new AccountingMoneyOutService(db, api, calls, contacts, attention);
  const taxMapping = new AccountingTaxMapping(db, api, calls);
  return {
    tokens,
    calls,
    connect: new AccountingConnectService(db, oauth, tokens),
    sync: new AccountingSyncService(db, api, calls, contacts, attention, taxMapping),
    webhook: new AccountingWebhookService(db, tokens, adapters.webhooks, opts.onQueued),
    payments: new AccountingPaymentsService(db, api, calls, attention),
    moneyOut,
    audit: new AccountingResidualAudit(db, api, calls, moneyOut),
    attention,
    check: new AccountingCheck(db, api, calls),
    taxMapping,
  };
}
