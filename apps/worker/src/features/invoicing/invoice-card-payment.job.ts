/**
 * A card payment of an invoice, confirmed by the provider's webhook (the control plane's invoice
 * hook queued it), registered on the ERP invoice (docs/payments.md, "Final invoice"). The memo names
 * the payment intent: a retry after a crash between the ERP write and the outbox's mark finds the
 * payment instead of registering a second one.
 */
import { type InvoiceCardPaymentJob, TOPIC_INVOICE_CARD_PAYMENT } from '@platform/contracts';
import { fromMinor } from '@platform/contracts/money.js';
import { type Erp, registerInvoicePayment } from '@platform/erp';
import type { OutboxHandler } from '@platform/outbox';

export const cardPaymentMemo = (p: Pick<InvoiceCardPaymentJob, 'paymentIntentId'>) =>
  `Card payment ${p.paymentIntentId}`;

export function invoiceCardPaymentHandler(
  erpFor: (tenantId: string) => Erp | Promise<Erp>,
): OutboxHandler<typeof TOPIC_INVOICE_CARD_PAYMENT> {
  return async (row) => {
    const p = row.payload;
    const erp = await erpFor(row.tenant_id);
    const paymentId = await registerInvoicePayment(erp, {
      invoiceId: p.invoiceId,
      amount: fromMinor(p.amountMinor, p.currency),
      memo: cardPaymentMemo(p),
      journalType: 'bank',
    });
    return { paymentId };
  };
}
