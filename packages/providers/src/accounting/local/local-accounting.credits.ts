/**
 * What lowers an invoice's AmountDue besides a payment, in the LOCAL stand-in, as Xero's UI does it:
 * a credit note (ACCRECCREDIT, AUTHORISED) allocated to the invoice, a prepayment or an overpayment
 * allocated to it, and a payment deleted (Status DELETED: the invoice gets its amount back and
 * leaves PAID). The server sends the webhooks Xero sends for these.
 */
import { randomUUID } from 'node:crypto';

import { LocalCreditNotes } from './local-accounting.credit-notes.js';
import { LocalLedger } from './local-accounting.ledger.js';
import { cents, LedgerError, type LocalAllocation, type LocalInvoice } from './local-accounting.records.js';

export type CreditKind = 'credit_note' | 'prepayment' | 'overpayment';
const KIND: Record<CreditKind, LocalAllocation['Kind']> = {
  credit_note: 'CreditNotes',
  prepayment: 'Prepayments',
  overpayment: 'Overpayments',
};

export class LocalCredits {
  private creditNoteSeq = 0;
  /** Credit notes whose allocation was removed: Xero keeps them, VOIDED (readable by id). */
  readonly voided = new Map<string, { note: LocalAllocation; invoice: LocalInvoice }>();

  /** Credit notes created through the API (one number sequence with the ones made here). */
  readonly notes: LocalCreditNotes;

  constructor(
    private readonly ledger: LocalLedger,
    private readonly nowMs: () => number,
  ) {
    this.notes = new LocalCreditNotes(ledger, () => this.nextNumber(), nowMs);
  }

  private nextNumber(): string {
    return `CN-${String(++this.creditNoteSeq).padStart(4, '0')}`;
  }

  private open(invoiceId: string): LocalInvoice {
    const inv = this.ledger.findInvoice(invoiceId);
    if (!inv) throw new LedgerError(404, 'Invoice could not be found');
    if (inv.Status !== 'AUTHORISED')
      throw new LedgerError(
        400,
        `Allocations can only be made against Authorised documents (invoice is ${inv.Status})`,
      );
    return inv;
  }

  /**
   * A credit note / prepayment / overpayment of `total` (default: `amount`) for the invoice's
   * contact, `amount` of it allocated to the invoice. Refused above the amount due, as Xero does.
   */
  allocate(input: { invoiceId: string; kind: CreditKind; amount: number; total?: number; date?: string }): {
    id: string;
    number: string;
    invoice: LocalInvoice;
  } {
    const inv = this.open(input.invoiceId);
    const amount = cents(input.amount);
    if (!(amount > 0)) throw new LedgerError(400, 'The allocated amount must be greater than zero');
    if (amount > LocalLedger.due(inv))
      throw new LedgerError(
        400,
        `The amount allocated exceeds the amount outstanding on this document (${LocalLedger.due(inv)})`,
      );
    const number = input.kind === 'credit_note' ? this.nextNumber() : '';
    const a: LocalAllocation = {
      Kind: KIND[input.kind],
      ID: randomUUID(),
      Number: number,
      AppliedAmount: amount,
      Date: input.date ?? new Date(this.nowMs()).toISOString().slice(0, 10),
      Total: cents(input.total ?? amount),
    };
    inv.Allocations.push(a);
    if (LocalLedger.due(inv) === 0) inv.Status = 'PAID';
    inv.UpdatedMs = this.nowMs();
    return { id: a.ID, number, invoice: inv };
  }

  /** Deletes a payment: it leaves the invoice (readable as DELETED), which is AUTHORISED again. */
  deletePayment(paymentId: string): LocalInvoice {
    const p = this.ledger.payments.get(paymentId);
    if (!p) throw new LedgerError(404, 'Payment could not be found');
    if (p.Status === 'DELETED') throw new LedgerError(400, 'The payment is already deleted');
    if (p.CreditNoteID) throw new LedgerError(400, 'The local stand-in does not delete refunds of credit notes');
    const inv = this.ledger.invoices.get(p.InvoiceID)!;
    p.Status = 'DELETED';
    inv.AmountPaid = cents(inv.AmountPaid - p.Amount);
    if (inv.Status === 'PAID') inv.Status = 'AUTHORISED';
    inv.UpdatedMs = this.nowMs();
    return inv;
  }

  /**
   * Removes an allocation (Xero's "Remove allocation"): the invoice owes that amount again. A credit
   * note is then voided, as a person removing a credit note in Xero does; it stays readable as VOIDED.
   */
  removeAllocation(allocatedId: string): LocalInvoice {
    const inv = [...this.ledger.invoices.values()].find((i) => i.Allocations.some((a) => a.ID === allocatedId));
    if (!inv) throw new LedgerError(404, 'Allocation could not be found');
    const removed = inv.Allocations.find((a) => a.ID === allocatedId)!;
    if (removed.Kind === 'CreditNotes') this.voided.set(removed.ID, { note: removed, invoice: inv });
    inv.Allocations = inv.Allocations.filter((a) => a.ID !== allocatedId);
    if (inv.Status === 'PAID' && LocalLedger.due(inv) > 0) inv.Status = 'AUTHORISED';
    inv.UpdatedMs = this.nowMs();
    return inv;
  }
}
