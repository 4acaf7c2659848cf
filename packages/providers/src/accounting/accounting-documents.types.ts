/** The document shapes shared by invoices and credit notes (accounting.port.ts, accounting-money.types.ts). */

export type LineAmountTypes = 'Exclusive' | 'Inclusive' | 'NoTax';

export interface InvoiceLineInput {
  description: string;
  quantity: number;
  /** Up to 4 decimals (sent with Xero's `unitdp=4`, else Xero keeps 2). */
  unitAmount: number;
  /** Percentage off the line (0-100); the line amount is quantity × unit amount × (1 − rate/100). */
  discountRate?: number;
  accountCode: string;
  /** Region-specific tax code (e.g. `OUTPUT`); the provider applies the account's default tax when absent. */
  taxType?: string;
}

export type InvoiceStatus = 'DRAFT' | 'SUBMITTED' | 'AUTHORISED' | 'PAID' | 'VOIDED' | 'DELETED';
