/**
 * Worker handlers of the accounting sync: a posted customer invoice pushed to the provider, and a
 * provider INVOICE UPDATE turned into ERP payments. Both are idempotent; rate limits and a
 * connection waiting for a reconnect come back as RetryLater (docs/integrations.md "Accounting").
 * The services (with the provider's adapters) come from the worker's deps.ts.
 */
import { TOPIC_ACCOUNTING_PUSH_INVOICE, TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import type { Erp } from '@platform/erp';
import type { AccountingServices } from '@platform/integrations';
import type { OutboxHandler } from '@platform/outbox';

/** Typed by topic; returned as a plain map so tests can call a handler by topic name. */
type AccountingHandlers = {
  [TOPIC_ACCOUNTING_PUSH_INVOICE]: OutboxHandler<typeof TOPIC_ACCOUNTING_PUSH_INVOICE>;
  [TOPIC_ACCOUNTING_WEBHOOK]: OutboxHandler<typeof TOPIC_ACCOUNTING_WEBHOOK>;
};

export function accountingHandlers(
  services: AccountingServices,
  erpFor: (erpDb: string | null) => Erp,
): Record<string, OutboxHandler> {
  const handlers: AccountingHandlers = {
    [TOPIC_ACCOUNTING_PUSH_INVOICE]: (row) =>
      services.sync.pushInvoice(row.tenant_id, row.payload.event, erpFor(row.payload.event.erpDb)),
    [TOPIC_ACCOUNTING_WEBHOOK]: (row) =>
      services.payments.applyInvoiceUpdate(row.tenant_id, row.payload, (erpDb) => erpFor(erpDb)),
  };
  return handlers;
}
