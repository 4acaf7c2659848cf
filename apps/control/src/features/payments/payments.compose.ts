/**
 * The payments feature (docs/payments.md): the tenant's payments settings and the provider's webhook
 * receiver, over the Stripe adapter when the platform has a key (the local stand-in under `npm start`).
 * Built by deps.ts; kept here so the composition root stays within its size.
 */
import { type Db, withTenant } from '@platform/db';
import { OutboxRelay, type RelayLogger } from '@platform/outbox';
import { type PaymentsApi, stripePaymentsAdapters } from '@platform/providers';
import { primaryHost } from '@platform/tenancy';

import type { ControlConfig } from '../../control.config.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { PortalService } from '../portal/portal.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import type { TenantPublicOrigins } from '../tenants/tenant-public-origins.js';
import { percentRule } from './deposit-amount.js';
import { type DepositCheckoutParts, DepositCheckoutService } from './deposit-checkout.service.js';
import { DepositErpJob } from './deposit-erp.job.js';
import { depositPaidHooks } from './deposit-paid.js';
import { DepositReconciler } from './deposit-reconcile.js';
import { OfficeDepositService } from './office-deposit.service.js';
import { PaymentSettingsService } from './payment-settings.service.js';
import { type PaymentEventHooks, PaymentWebhookService } from './payment-webhook.service.js';

export const PAYMENTS_WEBHOOK_PATH = '/webhooks/payments';
/** The console's screen onboarding returns to, on the tenant's host. */
export const PAYMENTS_SCREEN_PATH = '/office/settings/payments';

export interface PaymentsFeature {
  settings: PaymentSettingsService;
  deposit: DepositCheckoutService;
  webhook: PaymentWebhookService;
  office: OfficeDepositService;
  /** The paid deposit's ERP job (topic `payments.deposit_erp`) and the relay that runs it here. */
  erpJob: DepositErpJob;
  relay(logger: RelayLogger, workerId: string): OutboxRelay;
  /** Lost webhooks: run periodically by control.server.ts. */
  reconciler: DepositReconciler;
  /** The provider's API (undefined without a key), shared with the invoices' checkouts. */
  api: PaymentsApi | undefined;
  /** The tenant's own public origin, where checkouts and onboarding come back. */
  origin(tenantId: string): Promise<string>;
}

export interface PaymentsParts {
  db: Db;
  audit: AuditLog;
  erps: TenantErps;
  origins: TenantPublicOrigins;
  currency(tenantId: string): Promise<string>;
  hooks?: PaymentEventHooks;
  /** What the deposit on acceptance reads: the quotes, the portal's links and its link check. */
  quotes: DepositCheckoutParts['quotes'];
  links: DepositCheckoutParts['links'];
  /** The portal (made after this feature, which it asks for the deposit's state). */
  portal(): Pick<PortalService, 'link'>;
}

export function composePayments(config: ControlConfig, p: PaymentsParts): PaymentsFeature {
  const adapters = config.STRIPE_SECRET_KEY
    ? stripePaymentsAdapters({
        secretKey: config.STRIPE_SECRET_KEY,
        ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
      })
    : undefined;
  const secrets = (config.STRIPE_WEBHOOK_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // The tenant's own host: onboarding and the deposit's checkout come back there.
  const origin = async (tenantId: string) => {
    const host = await withTenant(p.db, tenantId, (tx) => primaryHost(tx, tenantId));
    return p.origins.origin(host.domain ?? `${host.slug}.${config.TENANTS_HOST}`);
  };
  const settings = new PaymentSettingsService(p.db, {
    api: adapters?.api,
    audit: p.audit,
    currency: p.currency,
    defaultRule: percentRule(config.QUOTE_DEPOSIT_PERCENT),
    screenUrl: async (tenantId) => `${await origin(tenantId)}${PAYMENTS_SCREEN_PATH}`,
  });
  const deposit = new DepositCheckoutService(p.db, {
    quotes: p.quotes,
    links: p.links,
    link: (hostTenant, token) => p.portal().link(hostTenant, token, 'accept'),
    api: adapters?.api,
    settings,
    currency: p.currency,
    portalUrl: async (tenantId, token) => `${await origin(tenantId)}/portal/quote/${token}`,
  });
  const verifier = adapters && secrets.length ? adapters.webhookVerifier(secrets) : undefined;
  const erpJob = new DepositErpJob(p.db, p.erps, p.quotes);
  // A paid checkout's job is run at once by this process's relay, not at its next poll.
  const relays: OutboxRelay[] = [];
  const wake = () => relays.forEach((r) => r.wake());
  return {
    settings,
    deposit,
    webhook: new PaymentWebhookService(p.db, verifier, p.hooks ?? depositPaidHooks, wake),
    office: new OfficeDepositService(p.db, { quotes: p.quotes, audit: p.audit, currency: p.currency }),
    erpJob,
    // Only this topic: the worker's relay has no handler for it, so each row is claimed here.
    relay: (logger, workerId) => {
      const relay = new OutboxRelay({ db: p.db, workerId, handlers: erpJob.handlers(), logger });
      relays.push(relay);
      return relay;
    },
    reconciler: new DepositReconciler(p.db, adapters?.api),
    api: adapters?.api,
    origin,
  };
}
