/**
 * The records the LOCAL accounting stand-in keeps (local-accounting.ledger.ts): contacts, invoices,
 * payments and credit allocations in Xero's field names, with Xero's rounding (half away from zero)
 * and its wire dates (MS-JSON `/Date(ms+0000)/`). `LedgerError` becomes a 400 ValidationException or a 404.
 */
export class LedgerError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export type Json = Record<string, unknown>;
export interface LocalContact {
  ContactID: string;
  ContactNumber: string | undefined;
  Name: string;
  EmailAddress: string | undefined;
  Phones: Json[];
  ContactStatus: string;
  UpdatedMs: number;
}
export interface LocalPayment {
  PaymentID: string;
  /** '' for a refund paid from a credit note. */
  InvoiceID: string;
  /** Set on a refund paid from a credit note (ARCREDITPAYMENT). */
  CreditNoteID?: string;
  Date: string;
  Amount: number;
  AccountCode: string;
  Reference: string | undefined;
  Status: 'AUTHORISED' | 'DELETED';
}
/** A credit note, prepayment or overpayment applied to an invoice. */
export interface LocalAllocation {
  Kind: 'CreditNotes' | 'Prepayments' | 'Overpayments';
  ID: string;
  Number: string;
  AppliedAmount: number;
  Date: string;
  Total: number;
}
export interface LocalInvoice {
  InvoiceID: string;
  InvoiceNumber: string;
  ContactID: string;
  Reference: string;
  Date: string;
  DueDate: string | undefined;
  Status: string;
  LineAmountTypes: string;
  LineItems: Json[];
  SubTotal: number;
  TotalTax: number;
  Total: number;
  AmountPaid: number;
  Payments: LocalPayment[];
  Allocations: LocalAllocation[];
  UpdatedMs: number;
}

/** Half away from zero on the decimal value, as Xero's decimal arithmetic does (15 significant digits strip float noise). */
export const places = (n: number, dp: number): number =>
  (Math.sign(n) * Math.round(Number((Math.abs(n) * 10 ** dp).toPrecision(15)))) / 10 ** dp;
export const cents = (n: number): number => places(n, 2);
export const invalid = (msg: string): never => {
  throw new LedgerError(400, msg);
};
const DATE = /^(\d{4}-\d{2}-\d{2})(T[\d:.]+)?$/;
export const msDate = (ms: number): string => `/Date(${ms}+0000)/`;
export const dayMs = (d: string): number => Date.parse(`${d}T00:00:00Z`);
export const dateOnly = (v: unknown, field: string): string => {
  const m = typeof v === 'string' ? DATE.exec(v) : null;
  return m && !Number.isNaN(dayMs(m[1] as string)) ? (m[1] as string) : invalid(`${field} must be a date (YYYY-MM-DD)`);
};
