/**
 * Data side of the LOCAL accounting stand-in: one organisation's contacts, sales invoices and
 * payments, with Xero's validation rules and wire shapes (PascalCase, MS-JSON dates).
 * As strict as Xero where it matters for totals: unit amounts keep 2 decimals unless the request
 * says `unitdp=4`; a line amount is quantity × unit amount × (1 − DiscountRate/100) in cents; a line
 * without TaxType gets its account's default tax type; tax is rounded per line. Credits (credit
 * notes, prepayments, overpayments) and payment deletion: local-accounting.credits.ts.
 * Records, rounding and wire dates: local-accounting.records.ts. Throws `LedgerError` (→ 400 / 404).
 */
import { randomUUID } from 'node:crypto';

import {
  cents,
  dateOnly,
  dayMs,
  invalid,
  type Json,
  LedgerError,
  type LocalContact,
  type LocalInvoice,
  type LocalPayment,
  msDate,
  places,
} from './local-accounting.records.js';

export interface LedgerOptions {
  /** Tax rates by TaxType. Unknown codes are refused. */
  taxRates: Record<string, number>;
  /** Default TaxType of each account code (a line without TaxType gets it); `NONE` for others. */
  accountTaxTypes: Record<string, string>;
  /** When set, only these account codes are accepted (lines and payments). */
  accountCodes: string[] | undefined;
}

export class LocalLedger {
  readonly contacts = new Map<string, LocalContact>();
  readonly invoices = new Map<string, LocalInvoice>();
  /** Every payment ever made, deleted ones included (GET /Payments/{id}). */
  readonly payments = new Map<string, LocalPayment>();
  private invoiceSeq = 0;

  constructor(
    private readonly opts: LedgerOptions,
    private readonly nowMs: () => number,
  ) {}

  checkAccount(code: unknown, field: string): string {
    if (typeof code !== 'string' || code === '') return invalid(`${field} is required`);
    if (this.opts.accountCodes && !this.opts.accountCodes.includes(code))
      return invalid(`Account code '${code}' is not a valid code for this document.`);
    return code;
  }

  saveContact(raw: Json, allowUpdate: boolean): LocalContact {
    const id = typeof raw['ContactID'] === 'string' ? raw['ContactID'] : undefined;
    const existing = id ? this.contacts.get(id) : undefined;
    if (id && !existing) throw new LedgerError(404, `Contact ${id} could not be found`);
    if (id && !allowUpdate) invalid('PUT creates contacts; use POST to update one');
    const name = typeof raw['Name'] === 'string' ? raw['Name'].trim() : (existing?.Name ?? '');
    if (name === '') invalid('The contact name must be specified.');
    for (const c of this.contacts.values()) {
      if (c.Name === name && c.ContactID !== id)
        invalid(
          `The contact name ${name} is already assigned to another contact. The contact name must be unique across all active contacts.`,
        );
    }
    const c: LocalContact = {
      ContactID: existing?.ContactID ?? randomUUID(),
      ContactNumber: typeof raw['ContactNumber'] === 'string' ? raw['ContactNumber'] : existing?.ContactNumber,
      Name: name,
      EmailAddress: typeof raw['EmailAddress'] === 'string' ? raw['EmailAddress'] : existing?.EmailAddress,
      Phones: Array.isArray(raw['Phones']) ? (raw['Phones'] as Json[]) : (existing?.Phones ?? []),
      ContactStatus:
        typeof raw['ContactStatus'] === 'string' ? raw['ContactStatus'] : (existing?.ContactStatus ?? 'ACTIVE'),
      UpdatedMs: this.nowMs(),
    };
    this.contacts.set(c.ContactID, c);
    return c;
  }

  /** What is still due: total less payments and credits applied. */
  static due(inv: LocalInvoice): number {
    return cents(inv.Total - inv.AmountPaid - inv.Allocations.reduce((s, a) => s + a.AppliedAmount, 0));
  }

  /** `unitDp`: 4 when the request carried `unitdp=4`, else 2 (Xero's default). */
  createInvoice(raw: Json, unitDp: 2 | 4 = 2): LocalInvoice {
    if (raw['Type'] !== 'ACCREC') invalid('Only ACCREC (sales) invoices are supported by the local stand-in');
    const contact = raw['Contact'] && typeof raw['Contact'] === 'object' ? (raw['Contact'] as Json) : {};
    const c = typeof contact['ContactID'] === 'string' ? this.contacts.get(contact['ContactID']) : undefined;
    if (!c) invalid('A Contact must be specified with a valid ContactID');
    const status = raw['Status'] ?? 'DRAFT';
    if (status !== 'DRAFT' && status !== 'SUBMITTED' && status !== 'AUTHORISED')
      invalid(`Invalid Status '${String(status)}' for a new invoice`);
    const lat = raw['LineAmountTypes'] ?? 'Exclusive';
    if (lat !== 'Exclusive' && lat !== 'Inclusive' && lat !== 'NoTax')
      invalid(`Invalid LineAmountTypes '${String(lat)}'`);
    const { lines, sub, tax } = this.computeLines(raw, lat as string, status === 'AUTHORISED', unitDp, 'Invoices');
    const inv: LocalInvoice = {
      InvoiceID: randomUUID(),
      InvoiceNumber: `INV-${String(++this.invoiceSeq).padStart(4, '0')}`,
      ContactID: (c as LocalContact).ContactID,
      Reference: typeof raw['Reference'] === 'string' ? raw['Reference'] : '',
      Date: dateOnly(raw['Date'] ?? new Date(this.nowMs()).toISOString().slice(0, 10), 'Date'),
      DueDate: raw['DueDate'] === undefined ? undefined : dateOnly(raw['DueDate'], 'DueDate'),
      Status: status as string,
      LineAmountTypes: lat as string,
      LineItems: lines,
      SubTotal: cents(sub),
      TotalTax: cents(tax),
      Total: cents(sub + tax),
      AmountPaid: 0,
      Payments: [],
      Allocations: [],
      UpdatedMs: this.nowMs(),
    };
    this.invoices.set(inv.InvoiceID, inv);
    return inv;
  }

  /**
   * Lines as Xero computes them (shared by invoices and credit notes); `strict`: an AUTHORISED
   * document, whose lines need a description, quantity, unit amount and a valid account.
   */
  computeLines(
    raw: Json,
    lat: string,
    strict: boolean,
    unitDp: 2 | 4,
    what: string,
  ): { lines: Json[]; sub: number; tax: number } {
    const items = Array.isArray(raw['LineItems']) ? (raw['LineItems'] as Json[]) : [];
    if (items.length === 0) invalid(`${what} must have at least one line item.`);
    let sub = 0;
    let tax = 0;
    const lines = items.map((l, i) => {
      const q = l['Quantity'];
      const u = l['UnitAmount'];
      if (strict) {
        if (typeof l['Description'] !== 'string' || l['Description'] === '')
          invalid(`LineItems[${i}]: Description is required`);
        if (typeof q !== 'number' || typeof u !== 'number')
          invalid(`LineItems[${i}]: Quantity and UnitAmount are required`);
        this.checkAccount(l['AccountCode'], `LineItems[${i}].AccountCode`);
      }
      const account = typeof l['AccountCode'] === 'string' ? l['AccountCode'] : '';
      const taxType = typeof l['TaxType'] === 'string' ? l['TaxType'] : (this.opts.accountTaxTypes[account] ?? 'NONE');
      const rate = lat === 'NoTax' ? 0 : this.opts.taxRates[taxType];
      if (rate === undefined)
        invalid(`The TaxType code '${taxType}' does not exist or cannot be used for this type of transaction.`);
      const disc = l['DiscountRate'];
      if (disc !== undefined && (typeof disc !== 'number' || disc < 0 || disc > 100))
        invalid(`LineItems[${i}]: DiscountRate must be between 0 and 100`);
      const unit = places(typeof u === 'number' ? u : 0, unitDp);
      const amount = cents((typeof q === 'number' ? q : 1) * unit * (1 - ((disc as number | undefined) ?? 0) / 100));
      const lineTax = cents(lat === 'Inclusive' ? amount - amount / (1 + (rate as number)) : amount * (rate as number));
      sub += lat === 'Inclusive' ? amount - lineTax : amount;
      tax += lineTax;
      return {
        ...l,
        UnitAmount: unit,
        TaxType: taxType,
        LineItemID: randomUUID(),
        LineAmount: amount,
        TaxAmount: lineTax,
      };
    });
    return { lines, sub, tax };
  }

  /** POST with InvoiceID: Reference, DueDate and status moves (DRAFT→AUTHORISED, →VOIDED/DELETED). */
  updateInvoice(raw: Json): { invoice: LocalInvoice; statusChanged: boolean } {
    const inv = this.findInvoice(String(raw['InvoiceID']));
    if (!inv) throw new LedgerError(404, 'The resource you are looking for cannot be found');
    if (typeof raw['Reference'] === 'string') inv.Reference = raw['Reference'];
    if (raw['DueDate'] !== undefined) inv.DueDate = dateOnly(raw['DueDate'], 'DueDate');
    const next = raw['Status'];
    const before = inv.Status;
    if (typeof next === 'string' && next !== before) {
      const ok =
        (next === 'AUTHORISED' && (before === 'DRAFT' || before === 'SUBMITTED')) ||
        (next === 'VOIDED' && before === 'AUTHORISED' && inv.AmountPaid === 0) ||
        (next === 'DELETED' && (before === 'DRAFT' || before === 'SUBMITTED'));
      if (!ok) invalid(`Invoice status cannot be changed from ${before} to ${next}`);
      inv.Status = next;
    }
    inv.UpdatedMs = this.nowMs();
    return { invoice: inv, statusChanged: inv.Status !== before };
  }

  /** By InvoiceID or InvoiceNumber, as Xero's `/Invoices/{id}` accepts both. */
  findInvoice(idOrNumber: string): LocalInvoice | undefined {
    return this.invoices.get(idOrNumber) ?? [...this.invoices.values()].find((i) => i.InvoiceNumber === idOrNumber);
  }

  applyPayment(raw: Json): { payment: LocalPayment; invoice: LocalInvoice } {
    const ref = raw['Invoice'] && typeof raw['Invoice'] === 'object' ? (raw['Invoice'] as Json) : {};
    const inv = this.findInvoice(String(ref['InvoiceID'] ?? ref['InvoiceNumber'] ?? ''));
    if (!inv) return invalid('Invoice could not be found');
    if (inv.Status !== 'AUTHORISED')
      invalid(`Payments can only be made against Authorised documents (invoice is ${inv.Status})`);
    const account = raw['Account'] && typeof raw['Account'] === 'object' ? (raw['Account'] as Json) : {};
    const amount = raw['Amount'];
    const due = LocalLedger.due(inv);
    if (typeof amount !== 'number' || !(amount > 0)) invalid('Payment amount must be greater than zero');
    if (cents(amount as number) > due)
      invalid(`Payment amount exceeds the amount outstanding on this document (${due})`);
    const payment: LocalPayment = {
      PaymentID: randomUUID(),
      InvoiceID: inv.InvoiceID,
      Date: dateOnly(raw['Date'] ?? new Date(this.nowMs()).toISOString().slice(0, 10), 'Date'),
      Amount: cents(amount as number),
      AccountCode: this.checkAccount(account['Code'], 'Account.Code'),
      Reference: typeof raw['Reference'] === 'string' ? raw['Reference'] : undefined,
      Status: 'AUTHORISED',
    };
    inv.Payments.push(payment);
    this.payments.set(payment.PaymentID, payment);
    inv.AmountPaid = cents(inv.AmountPaid + payment.Amount);
    if (LocalLedger.due(inv) === 0) inv.Status = 'PAID';
    inv.UpdatedMs = this.nowMs();
    return { payment, invoice: inv };
  }

  static contactJson(c: LocalContact): Json {
    const { UpdatedMs, ...rest } = c;
    return { ...rest, UpdatedDateUTC: msDate(UpdatedMs) };
  }

  invoiceJson(inv: LocalInvoice): Json {
    const c = this.contacts.get(inv.ContactID);
    const paid = inv.Status === 'PAID' ? inv.Payments.at(-1) : undefined;
    return {
      Type: 'ACCREC',
      InvoiceID: inv.InvoiceID,
      InvoiceNumber: inv.InvoiceNumber,
      Reference: inv.Reference,
      Contact: { ContactID: inv.ContactID, Name: c?.Name ?? '' },
      Date: msDate(dayMs(inv.Date)),
      DateString: `${inv.Date}T00:00:00`,
      ...(inv.DueDate ? { DueDate: msDate(dayMs(inv.DueDate)), DueDateString: `${inv.DueDate}T00:00:00` } : {}),
      Status: inv.Status,
      LineAmountTypes: inv.LineAmountTypes,
      LineItems: inv.LineItems,
      SubTotal: inv.SubTotal,
      TotalTax: inv.TotalTax,
      Total: inv.Total,
      AmountDue: LocalLedger.due(inv),
      AmountPaid: inv.AmountPaid,
      AmountCredited: cents(inv.Allocations.reduce((s, a) => s + a.AppliedAmount, 0)),
      CurrencyCode: 'USD',
      // Deleted payments drop off the invoice (GET /Payments/{id} still shows them, Status DELETED).
      Payments: inv.Payments.filter((p) => p.Status !== 'DELETED').map((p) => ({
        PaymentID: p.PaymentID,
        Date: msDate(dayMs(p.Date)),
        Amount: p.Amount,
        Reference: p.Reference ?? '',
        CurrencyRate: 1,
        HasAccount: false,
        HasValidationErrors: false,
      })),
      ...Object.fromEntries(
        (['CreditNotes', 'Prepayments', 'Overpayments'] as const).map((k) => [
          k,
          inv.Allocations.filter((a) => a.Kind === k).map((a) => ({
            [`${k.slice(0, -1)}ID`]: a.ID,
            ...(k === 'CreditNotes' ? { CreditNoteNumber: a.Number } : {}),
            AppliedAmount: a.AppliedAmount,
            Date: msDate(dayMs(a.Date)),
            Total: a.Total,
          })),
        ]),
      ),
      ...(paid ? { FullyPaidOnDate: msDate(dayMs(paid.Date)) } : {}),
      UpdatedDateUTC: msDate(inv.UpdatedMs),
    };
  }
}
