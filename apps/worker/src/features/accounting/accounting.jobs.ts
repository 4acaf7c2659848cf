/**
 * Worker handlers of the accounting sync: a posted customer invoice pushed to the provider, a
 * customer payment or credit note posted in the ERP sent there too, and a provider INVOICE UPDATE
 * turned into ERP payments. Both are idempotent; rate limits and a
 * connection waiting for a reconnect come back as RetryLater (docs/integrations.md "Accounting").
 * The services (with the provider's adapters) come from the worker's deps.ts.
 */
import {
  TOPIC_ACCOUNTING_PUSH_INVOICE,
  TOPIC_ACCOUNTING_PUSH_MONEY,
  TOPIC_ACCOUNTING_WEBHOOK,
} from '@platform/contracts';
import type { Erp } from '@platform/erp';
import type { AccountingServices } from '@platform/integrations';
import type { OutboxHandler } from '@platform/outbox';

/** Typed by topic; returned as a plain map so tests can call a handler by topic name. */
type AccountingHandlers = {
  [TOPIC_ACCOUNTING_PUSH_INVOICE]: OutboxHandler<typeof TOPIC_ACCOUNTING_PUSH_INVOICE>;
  [TOPIC_ACCOUNTING_WEBHOOK]: OutboxHandler<typeof TOPIC_ACCOUNTING_WEBHOOK>;
  [TOPIC_ACCOUNTING_PUSH_MONEY]: OutboxHandler<typeof TOPIC_ACCOUNTING_PUSH_MONEY>;
};

export function accountingHandlers(
  services: AccountingServices,
  /** The ERP of the row's tenant (its own database and service account). */
  erpFor: (tenantId: string) => Erp | Promise<Erp>,
): Record<string, OutboxHandler> {
  const handlers: AccountingHandlers = {
    [TOPIC_ACCOUNTING_PUSH_INVOICE]: async (row) =>
      services.sync.pushInvoice(row.tenant_id, row.payload.event, await erpFor(row.tenant_id)),
    [TOPIC_ACCOUNTING_WEBHOOK]: async (row) => {
      const erp = await erpFor(row.tenant_id);
      return services.payments.applyInvoiceUpdate(row.tenant_id, row.payload, () => erp);
    },
    [TOPIC_ACCOUNTING_PUSH_MONEY]: async (row) =>
      services.moneyOut.push(row.tenant_id, row.payload, await erpFor(row.tenant_id)),
  };
  return handlers;
}
