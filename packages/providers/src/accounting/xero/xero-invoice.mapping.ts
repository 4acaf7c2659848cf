/**
 * Xero's invoice, contact and tax rate JSON → our types. Everything that lowers AmountDue is read: Payments
 * (with their Status), CreditNotes, Prepayments and Overpayments allocated to the invoice
 * (`AppliedAmount`), so the caller can keep its own residual equal to Xero's AmountDue.
 */
import {
  AccountingError,
  type AccountingInvoice,
  type AccountingTaxRate,
  type FoundContact,
  type InvoiceAllocation,
  type InvoiceStatus,
} from '../accounting.port.js';
import type { AccountingCreditNote } from '../accounting-money.types.js';
import { parseXeroDate } from './xero-http.js';

type Json = Record<string, unknown>;
const STATUSES = new Set<InvoiceStatus>(['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED']);

const fail = (msg: string): never => {
  throw new AccountingError('format', `Xero invoice: ${msg}`);
};
const num = (v: unknown, field: string): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fail(`${field} is not a number`);
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const ALLOCATIONS: [InvoiceAllocation['kind'], string, string][] = [
  ['credit_note', 'CreditNotes', 'CreditNoteID'],
  ['prepayment', 'Prepayments', 'PrepaymentID'],
  ['overpayment', 'Overpayments', 'OverpaymentID'],
];

export function toInvoice(raw: unknown): AccountingInvoice {
  const inv = (raw ?? {}) as Json;
  const status = inv['Status'];
  if (typeof inv['InvoiceID'] !== 'string' || typeof status !== 'string' || !STATUSES.has(status as InvoiceStatus)) {
    throw new AccountingError('format', 'Xero invoice: missing InvoiceID or unknown Status');
  }
  const allocations: InvoiceAllocation[] = [];
  for (const [kind, key, idKey] of ALLOCATIONS) {
    for (const a of arr(inv[key])) {
      allocations.push({
        kind,
        id: str(a[idKey]) || fail(`${key}.${idKey} is missing`),
        number: str(a['CreditNoteNumber']),
        appliedAmount: num(a['AppliedAmount'], `${key}.AppliedAmount`),
        date: parseXeroDate(a['Date']) ?? new Date(0),
      });
    }
  }
  return {
    invoiceId: inv['InvoiceID'],
    invoiceNumber: str(inv['InvoiceNumber']),
    reference: str(inv['Reference']),
    status: status as InvoiceStatus,
    total: num(inv['Total'], 'Total'),
    amountDue: num(inv['AmountDue'], 'AmountDue'),
    amountPaid: num(inv['AmountPaid'], 'AmountPaid'),
    amountCredited: typeof inv['AmountCredited'] === 'number' ? inv['AmountCredited'] : 0,
    payments: arr(inv['Payments']).map((p) => ({
      paymentId: String(p['PaymentID']),
      amount: num(p['Amount'], 'Payments.Amount'),
      date: parseXeroDate(p['Date']) ?? fail('Payments.Date is not a date'),
      status: str(p['Status']) || 'AUTHORISED',
      reference: str(p['Reference']),
    })),
    allocations,
  };
}

/** A credit note with what was allocated from it (`Allocations[].Invoice.InvoiceID`, `Amount`) and refunded (`Payments`). */
export function toCreditNote(raw: unknown): AccountingCreditNote {
  const cn = (raw ?? {}) as Json;
  const status = cn['Status'];
  if (typeof cn['CreditNoteID'] !== 'string' || typeof status !== 'string' || !STATUSES.has(status as InvoiceStatus))
    throw new AccountingError('format', 'Xero credit note: missing CreditNoteID or unknown Status');
  return {
    creditNoteId: cn['CreditNoteID'],
    creditNoteNumber: str(cn['CreditNoteNumber']),
    status: status as InvoiceStatus,
    total: num(cn['Total'], 'Total'),
    remainingCredit: num(cn['RemainingCredit'], 'RemainingCredit'),
    allocations: arr(cn['Allocations']).map((a) => ({
      invoiceId: str((a['Invoice'] as Json | undefined)?.['InvoiceID']),
      amount: num(a['Amount'], 'Allocations.Amount'),
    })),
    payments: arr(cn['Payments']).map((p) => ({
      paymentId: String(p['PaymentID']),
      amount: num(p['Amount'], 'Payments.Amount'),
    })),
  };
}

export function toContact(raw: Json): FoundContact {
  if (typeof raw['ContactID'] !== 'string')
    throw new AccountingError('format', 'Xero contact: response without ContactID');
  return {
    contactId: raw['ContactID'],
    name: str(raw['Name']),
    contactNumber: str(raw['ContactNumber']) || undefined,
    email: str(raw['EmailAddress']) || undefined,
    status: str(raw['ContactStatus']) || 'ACTIVE',
  };
}

/** One `TaxRates` entry; a rate without TaxType or a numeric rate is not the protocol's shape. */
export function toTaxRate(raw: Json): AccountingTaxRate {
  const rate = raw['EffectiveRate'] ?? raw['DisplayTaxRate'];
  if (typeof raw['TaxType'] !== 'string' || typeof rate !== 'number')
    throw new AccountingError('format', 'Xero tax rate: response without TaxType or EffectiveRate');
  const display = raw['DisplayTaxRate'];
  return {
    taxType: raw['TaxType'],
    name: str(raw['Name']) || raw['TaxType'],
    effectiveRate: rate,
    displayRate: typeof display === 'number' ? display : rate,
    status: str(raw['Status']) || 'ACTIVE',
    // Xero leaves the flag out of older answers; absent means usable on sales.
    canApplyToRevenue: raw['CanApplyToRevenue'] !== false,
  };
}
