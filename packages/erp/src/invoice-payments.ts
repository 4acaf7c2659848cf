/**
 * Registering a customer's payment on a posted invoice through Odoo 15's "Register Payment" wizard
 * (`account.payment.register` with `active_model: account.move`, then `action_create_payments`), the
 * way Odoo's own clients do over RPC. Shared by the control plane (cash, check, bank recorded by the
 * office) and the worker (a card payment from the provider's webhook).
 *
 * Find before create: the memo is unique per payment (it carries the card's payment intent id, or the
 * office request's key), so a retry after a lost reply finds the payment instead of making a second.
 */
import type { Erp } from './erp.port.js';

export interface InvoicePayment {
  invoiceId: number;
  /** Major units, as the ERP keeps them (rounded by the caller from integer minor units). */
  amount: number;
  /** Unique per payment: what a retry looks for. */
  memo: string;
  /** The journal's type: `cash` for cash, `bank` otherwise; the ERP's default when absent. */
  journalType?: 'cash' | 'bank';
  /** YYYY-MM-DD; today (the ERP's) when absent. */
  date?: string;
}

/** The ERP's payment id: the one already registered under this memo, or a new one. */
export async function registerInvoicePayment(erp: Erp, p: InvoicePayment): Promise<number> {
  const earlier = await erp.search('account.payment', [['ref', '=', p.memo]], { limit: 1 });
  if (earlier[0]) return earlier[0];
  const journal = p.journalType
    ? (await erp.search('account.journal', [['type', '=', p.journalType]], { limit: 1, order: 'id' }))[0]
    : undefined;
  const wizard = await erp.create(
    'account.payment.register',
    {
      amount: p.amount,
      communication: p.memo,
      ...(journal ? { journal_id: journal } : {}),
      ...(p.date ? { payment_date: p.date } : {}),
    },
    { active_model: 'account.move', active_ids: [p.invoiceId] },
  );
  await erp.call('account.payment.register', 'action_create_payments', [[wizard]]);
  const [made] = await erp.search('account.payment', [['ref', '=', p.memo]], { limit: 1, order: 'id desc' });
  return made ?? 0;
}
