/**
 * Money made outside the provider (in the ERP) and recorded there: payments on invoices, sales
 * credit notes, and refunds paid from them. Part of the accounting port (accounting.port.ts).
 */
import type { InvoiceLineInput, InvoiceStatus, LineAmountTypes } from './accounting-documents.types.js';

/** A payment made elsewhere (in the ERP) recorded at the provider: on an invoice, or a refund paid from a credit note. */
export interface CreatePaymentInput {
  target: { invoiceId: string } | { creditNoteId: string };
  /** The bank (or clearing) account the money went into or came out of. */
  accountCode: string;
  amount: number;
  /** `YYYY-MM-DD` */
  date: string;
  reference: string;
  /** As for invoices: a retry after a lost reply is answered with the first payment. */
  idempotencyKey?: string;
}

export interface CreatedPayment {
  paymentId: string;
  amount: number;
  status: string;
}

/** A sales credit note (Xero `ACCRECCREDIT`), created AUTHORISED so it can be allocated or refunded. */
export interface CreateCreditNoteInput {
  contactId: string;
  reference: string;
  /** `YYYY-MM-DD` */
  date: string;
  lineAmountTypes: LineAmountTypes;
  lines: InvoiceLineInput[];
  idempotencyKey?: string;
}

export interface AccountingCreditNote {
  creditNoteId: string;
  creditNoteNumber: string;
  status: InvoiceStatus;
  total: number;
  /** What is neither allocated to invoices nor refunded yet. */
  remainingCredit: number;
  allocations: { invoiceId: string; amount: number }[];
  payments: { paymentId: string; amount: number }[];
}

/** `amount` of a credit note applied to an invoice (`YYYY-MM-DD` date). */
export interface CreditNoteAllocation {
  invoiceId: string;
  amount: number;
  date: string;
}
