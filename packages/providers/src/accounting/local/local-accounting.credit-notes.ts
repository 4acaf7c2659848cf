/**
 * Sales credit notes created through the API in the LOCAL stand-in, as Xero documents them
 * (developer.xero.com/documentation/api/accounting/creditnotes, /payments; shared provider-protocols
 * reference §2): `PUT /CreditNotes` makes an ACCRECCREDIT with line items computed like an invoice's;
 * only an AUTHORISED note can be allocated (`PUT /CreditNotes/{id}/Allocations`, each allocation
 * `{Invoice:{InvoiceID}, Amount, Date}`, at most the note's remaining credit and the invoice's
 * amount due, same contact) or refunded (`PUT /Payments` with `CreditNote.CreditNoteID`, type
 * ARCREDITPAYMENT, at most the remaining credit). A note with nothing left is PAID.
 */
import { randomUUID } from 'node:crypto';

import { LocalLedger } from './local-accounting.ledger.js';
import {
  cents,
  dateOnly,
  dayMs,
  invalid,
  type Json,
  LedgerError,
  type LocalInvoice,
  type LocalPayment,
  msDate,
} from './local-accounting.records.js';

export interface LocalCreditNote {
  CreditNoteID: string;
  CreditNoteNumber: string;
  ContactID: string;
  Reference: string;
  Date: string;
  Status: 'DRAFT' | 'AUTHORISED' | 'PAID';
  LineAmountTypes: string;
  LineItems: Json[];
  SubTotal: number;
  TotalTax: number;
  Total: number;
  Allocations: { InvoiceID: string; Amount: number; Date: string }[];
  Payments: LocalPayment[];
  UpdatedMs: number;
}

const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});

export class LocalCreditNotes {
  readonly notes = new Map<string, LocalCreditNote>();

  constructor(
    private readonly ledger: LocalLedger,
    private readonly nextNumber: () => string,
    private readonly nowMs: () => number,
  ) {}

  private today(): string {
    return new Date(this.nowMs()).toISOString().slice(0, 10);
  }

  static remaining(cn: LocalCreditNote): number {
    const used = cn.Allocations.reduce((s, a) => s + a.Amount, 0);
    const refunded = cn.Payments.filter((p) => p.Status !== 'DELETED').reduce((s, p) => s + p.Amount, 0);
    return cents(cn.Total - used - refunded);
  }

  create(raw: Json, unitDp: 2 | 4): LocalCreditNote {
    if (raw['Type'] !== 'ACCRECCREDIT')
      invalid('Only ACCRECCREDIT (sales) credit notes are supported by the local stand-in');
    const c = this.ledger.contacts.get(String(obj(raw['Contact'])['ContactID'] ?? ''));
    if (!c) return invalid('A Contact must be specified with a valid ContactID');
    const status = raw['Status'] ?? 'DRAFT';
    if (status !== 'DRAFT' && status !== 'AUTHORISED')
      invalid(`Invalid Status '${String(status)}' for a new credit note`);
    const lat = String(raw['LineAmountTypes'] ?? 'Exclusive');
    if (!['Exclusive', 'Inclusive', 'NoTax'].includes(lat)) invalid(`Invalid LineAmountTypes '${lat}'`);
    const { lines, sub, tax } = this.ledger.computeLines(raw, lat, status === 'AUTHORISED', unitDp, 'Credit notes');
    const cn: LocalCreditNote = {
      CreditNoteID: randomUUID(),
      CreditNoteNumber: this.nextNumber(),
      ContactID: c.ContactID,
      Reference: typeof raw['Reference'] === 'string' ? raw['Reference'] : '',
      Date: dateOnly(raw['Date'] ?? this.today(), 'Date'),
      Status: status as LocalCreditNote['Status'],
      LineAmountTypes: lat,
      LineItems: lines,
      SubTotal: cents(sub),
      TotalTax: cents(tax),
      Total: cents(sub + tax),
      Allocations: [],
      Payments: [],
      UpdatedMs: this.nowMs(),
    };
    this.notes.set(cn.CreditNoteID, cn);
    return cn;
  }

  private authorised(id: string): LocalCreditNote {
    const cn = this.notes.get(id);
    if (!cn) throw new LedgerError(404, 'The resource you are looking for cannot be found');
    if (cn.Status !== 'AUTHORISED')
      invalid(`Allocations and refunds can only be made from Authorised credit notes (credit note is ${cn.Status})`);
    return cn;
  }

  private settle(cn: LocalCreditNote): void {
    if (LocalCreditNotes.remaining(cn) === 0) cn.Status = 'PAID';
    cn.UpdatedMs = this.nowMs();
  }

  /** One allocation to an invoice of the note's contact; the invoice's AmountDue drops by it. */
  allocate(id: string, raw: Json): { note: LocalCreditNote; invoice: LocalInvoice; amount: number } {
    const cn = this.authorised(id);
    const inv = this.ledger.findInvoice(String(obj(raw['Invoice'])['InvoiceID'] ?? ''));
    if (!inv) return invalid('Invoice could not be found');
    if (inv.Status !== 'AUTHORISED')
      invalid(`Allocations can only be made against Authorised documents (invoice is ${inv.Status})`);
    if (inv.ContactID !== cn.ContactID) invalid('The credit note and the invoice must be for the same contact');
    const amount = raw['Amount'];
    if (typeof amount !== 'number' || !(amount > 0)) return invalid('The allocated amount must be greater than zero');
    if (cents(amount) > LocalCreditNotes.remaining(cn))
      invalid(
        `The amount allocated exceeds the remaining credit on the credit note (${LocalCreditNotes.remaining(cn)})`,
      );
    if (cents(amount) > LocalLedger.due(inv))
      invalid(`The amount allocated exceeds the amount outstanding on this document (${LocalLedger.due(inv)})`);
    const date = dateOnly(raw['Date'] ?? this.today(), 'Date');
    cn.Allocations.push({ InvoiceID: inv.InvoiceID, Amount: cents(amount), Date: date });
    inv.Allocations.push({
      Kind: 'CreditNotes',
      ID: cn.CreditNoteID,
      Number: cn.CreditNoteNumber,
      AppliedAmount: cents(amount),
      Date: date,
      Total: cn.Total,
    });
    if (LocalLedger.due(inv) === 0) inv.Status = 'PAID';
    inv.UpdatedMs = this.nowMs();
    this.settle(cn);
    return { note: cn, invoice: inv, amount: cents(amount) };
  }

  /** A refund paid from the note (money back to the customer): the note's remaining credit drops by it. */
  refund(raw: Json, accountCode: string): { payment: LocalPayment; note: LocalCreditNote } {
    const cn = this.authorised(String(obj(raw['CreditNote'])['CreditNoteID'] ?? ''));
    const amount = raw['Amount'];
    if (typeof amount !== 'number' || !(amount > 0)) return invalid('Payment amount must be greater than zero');
    if (cents(amount) > LocalCreditNotes.remaining(cn))
      invalid(`Payment amount exceeds the amount outstanding on this document (${LocalCreditNotes.remaining(cn)})`);
    const payment: LocalPayment = {
      PaymentID: randomUUID(),
      InvoiceID: '',
      CreditNoteID: cn.CreditNoteID,
      Date: dateOnly(raw['Date'] ?? this.today(), 'Date'),
      Amount: cents(amount),
      AccountCode: accountCode,
      Reference: typeof raw['Reference'] === 'string' ? raw['Reference'] : undefined,
      Status: 'AUTHORISED',
    };
    cn.Payments.push(payment);
    this.ledger.payments.set(payment.PaymentID, payment);
    this.settle(cn);
    return { payment, note: cn };
  }

  json(cn: LocalCreditNote): Json {
    const c = this.ledger.contacts.get(cn.ContactID);
    return {
      CreditNoteID: cn.CreditNoteID,
      ID: cn.CreditNoteID,
      CreditNoteNumber: cn.CreditNoteNumber,
      Type: 'ACCRECCREDIT',
      Reference: cn.Reference,
      Contact: { ContactID: cn.ContactID, Name: c?.Name ?? '' },
      Date: msDate(dayMs(cn.Date)),
      DateString: `${cn.Date}T00:00:00`,
      Status: cn.Status,
      LineAmountTypes: cn.LineAmountTypes,
      LineItems: cn.LineItems,
      SubTotal: cn.SubTotal,
      TotalTax: cn.TotalTax,
      Total: cn.Total,
      RemainingCredit: LocalCreditNotes.remaining(cn),
      CurrencyCode: 'USD',
      Allocations: cn.Allocations.map((a) => {
        const inv = this.ledger.invoices.get(a.InvoiceID);
        return {
          Amount: a.Amount,
          Date: msDate(dayMs(a.Date)),
          Invoice: { InvoiceID: a.InvoiceID, InvoiceNumber: inv?.InvoiceNumber ?? '' },
        };
      }),
      Payments: cn.Payments.filter((p) => p.Status !== 'DELETED').map((p) => ({
        PaymentID: p.PaymentID,
        Date: msDate(dayMs(p.Date)),
        Amount: p.Amount,
        Reference: p.Reference ?? '',
      })),
      UpdatedDateUTC: msDate(cn.UpdatedMs),
    };
  }
}
