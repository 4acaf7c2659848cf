/**
 * Xero Accounting API adapter (`{apiUrl}/api.xro/2.0`): tax rates, contacts, sales invoices, payments.
 * Every call sends `Authorization: Bearer …` and `xero-tenant-id`, asks for JSON and reads
 * Xero's MS-JSON dates. Invoices are written and read with `unitdp=4`; creates carry the caller's
 * `Idempotency-Key` (as xero-node sends it). Errors are `AccountingError` (a 429 is `rate_limited` with
 * `retryAfterSeconds`); messages never contain the access token.
 */
import {
  type AccountingApi,
  type AccountingAuth,
  AccountingError,
  type AccountingInvoice,
  type ContactInput,
  type CreatedInvoice,
  type CreateInvoiceInput,
  type InvoiceLineInput,
  type UpsertContactInput,
} from '../accounting.port.js';
import type { CreateCreditNoteInput, CreatePaymentInput } from '../accounting-money.types.js';
import { apiError, DEFAULT_XERO_TIMEOUT_MS, trimSlash, whereString, XERO_API_URL, xeroRequest } from './xero-http.js';
import { toContact, toCreditNote, toInvoice, toTaxRate } from './xero-invoice.mapping.js';

/** Unit amounts keep 4 decimals only when asked (`unitdp=4`); Xero rounds them to 2 otherwise. */
const UNITDP = 'unitdp=4';

export interface XeroAccountingClientOptions {
  /** Default `https://api.xero.com`; the accounting API lives under `/api.xro/2.0`. */
  apiUrl?: string;
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

const lineItem = (l: InvoiceLineInput): Json => ({
  Description: l.description,
  Quantity: l.quantity,
  UnitAmount: l.unitAmount,
  ...(l.discountRate ? { DiscountRate: l.discountRate } : {}),
  AccountCode: l.accountCode,
  ...(l.taxType === undefined ? {} : { TaxType: l.taxType }),
});

function firstOf(json: unknown, key: 'Contacts' | 'Invoices' | 'Payments' | 'CreditNotes', label: string): Json {
  const list = json && typeof json === 'object' ? (json as Json)[key] : undefined;
  if (!Array.isArray(list) || list.length === 0 || !list[0] || typeof list[0] !== 'object') {
    throw new AccountingError('format', `${label}: response without ${key}`);
  }
  return list[0] as Json;
}

export function createXeroAccountingClient(opts: XeroAccountingClientOptions = {}): AccountingApi {
  const base = `${trimSlash(opts.apiUrl ?? XERO_API_URL)}/api.xro/2.0`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_XERO_TIMEOUT_MS;

  async function call(
    auth: AccountingAuth,
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    label: string,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<unknown> {
    if (!auth.tenantId) throw new AccountingError('forbidden', `${label}: tenantId is required`);
    const headers: Record<string, string> = {
      authorization: `Bearer ${auth.accessToken}`,
      'xero-tenant-id': auth.tenantId,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) {
      if (idempotencyKey.length === 0 || idempotencyKey.length > 128)
        throw new AccountingError('validation', `${label}: Idempotency-Key must be 1-128 characters`);
      headers['idempotency-key'] = idempotencyKey;
    }
    const res = await xeroRequest(
      `${base}${path}`,
      { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
      timeoutMs,
      label,
    );
    if (res.status < 200 || res.status > 299) throw apiError(res, label);
    return res.json;
  }

  return {
    async listTaxRates(auth) {
      const json = (await call(auth, 'GET', '/TaxRates', 'Xero tax rates')) as Json | undefined;
      const list = json?.['TaxRates'];
      if (!Array.isArray(list)) throw new AccountingError('format', 'Xero tax rates: response without TaxRates');
      return (list as Json[]).map(toTaxRate);
    },

    async upsertContact(auth, input: UpsertContactInput) {
      const label = 'Xero contact upsert';
      if (!input.contactNumber) throw new AccountingError('validation', `${label}: contactNumber is required`);
      const where = encodeURIComponent(`ContactNumber==${whereString(input.contactNumber)}`);
      const found = (await call(auth, 'GET', `/Contacts?where=${where}&includeArchived=true`, label)) as
        Json | undefined;
      const existing = Array.isArray(found?.['Contacts']) ? (found['Contacts'] as Json[])[0] : undefined;
      const contact: Json = { Name: input.name, ContactNumber: input.contactNumber, ContactStatus: 'ACTIVE' };
      if (input.email !== undefined) contact['EmailAddress'] = input.email;
      if (input.phone !== undefined) contact['Phones'] = [{ PhoneType: 'DEFAULT', PhoneNumber: input.phone }];
      const json = existing
        ? await call(auth, 'POST', '/Contacts', label, { Contacts: [{ ContactID: existing['ContactID'], ...contact }] })
        : await call(auth, 'PUT', '/Contacts', label, { Contacts: [contact] });
      const id = firstOf(json, 'Contacts', label)['ContactID'];
      if (typeof id !== 'string') throw new AccountingError('format', `${label}: response without ContactID`);
      return { contactId: id };
    },

    async createInvoice(auth, input: CreateInvoiceInput): Promise<CreatedInvoice> {
      const label = 'Xero invoice create';
      const invoice: Json = {
        Type: 'ACCREC',
        Contact: { ContactID: input.contactId },
        Date: input.date,
        LineAmountTypes: input.lineAmountTypes,
        Reference: input.reference,
        Status: input.status,
        LineItems: input.lines.map(lineItem),
      };
      if (input.dueDate !== undefined) invoice['DueDate'] = input.dueDate;
      const json = await call(auth, 'PUT', `/Invoices?${UNITDP}`, label, { Invoices: [invoice] }, input.idempotencyKey);
      const inv = toInvoice(firstOf(json, 'Invoices', label));
      return { invoiceId: inv.invoiceId, invoiceNumber: inv.invoiceNumber, status: inv.status, total: inv.total };
    },

    async findInvoiceByReference(auth, reference: string) {
      const label = 'Xero invoice find';
      const where = encodeURIComponent(`Type=="ACCREC" AND Reference==${whereString(reference)}`);
      const json = (await call(
        auth,
        'GET',
        `/Invoices?where=${where}&Statuses=DRAFT,SUBMITTED,AUTHORISED,PAID&${UNITDP}`,
        label,
      )) as Json | undefined;
      const list = Array.isArray(json?.['Invoices']) ? (json['Invoices'] as unknown[]) : [];
      return list.length === 0 ? null : toInvoice(list[0]);
    },

    async getInvoice(auth, invoiceId: string): Promise<AccountingInvoice> {
      const label = 'Xero invoice get';
      return toInvoice(
        firstOf(
          await call(auth, 'GET', `/Invoices/${encodeURIComponent(invoiceId)}?${UNITDP}`, label),
          'Invoices',
          label,
        ),
      );
    },

    async findContacts(auth, by) {
      const label = 'Xero contact find';
      const clause =
        'contactNumber' in by ? `ContactNumber==${whereString(by.contactNumber)}` : `Name==${whereString(by.name)}`;
      const json = (await call(
        auth,
        'GET',
        `/Contacts?where=${encodeURIComponent(clause)}&includeArchived=true`,
        label,
      )) as Json | undefined;
      return (Array.isArray(json?.['Contacts']) ? (json['Contacts'] as Json[]) : []).map(toContact);
    },

    async createContact(auth, input: ContactInput, idempotencyKey?: string) {
      const label = 'Xero contact create';
      const contact: Json = { Name: input.name, ContactNumber: input.contactNumber };
      if (input.email !== undefined) contact['EmailAddress'] = input.email;
      if (input.phone !== undefined) contact['Phones'] = [{ PhoneType: 'DEFAULT', PhoneNumber: input.phone }];
      return {
        contactId: toContact(
          firstOf(
            await call(auth, 'PUT', '/Contacts', label, { Contacts: [contact] }, idempotencyKey),
            'Contacts',
            label,
          ),
        ).contactId,
      };
    },

    async createPayment(auth, input: CreatePaymentInput) {
      const label = 'Xero payment create';
      const target =
        'invoiceId' in input.target
          ? { Invoice: { InvoiceID: input.target.invoiceId } }
          : { CreditNote: { CreditNoteID: input.target.creditNoteId } };
      const payment = {
        ...target,
        Account: { Code: input.accountCode },
        Date: input.date,
        Amount: input.amount,
        Reference: input.reference,
      };
      const p = firstOf(
        await call(auth, 'PUT', '/Payments', label, { Payments: [payment] }, input.idempotencyKey),
        'Payments',
        label,
      );
      if (typeof p['PaymentID'] !== 'string' || typeof p['Amount'] !== 'number')
        throw new AccountingError('format', `${label}: response without PaymentID or Amount`);
      return { paymentId: p['PaymentID'], amount: p['Amount'], status: String(p['Status'] ?? '') };
    },

    async createCreditNote(auth, input: CreateCreditNoteInput) {
      const label = 'Xero credit note create';
      const note: Json = {
        Type: 'ACCRECCREDIT',
        Contact: { ContactID: input.contactId },
        Date: input.date,
        LineAmountTypes: input.lineAmountTypes,
        Reference: input.reference,
        Status: 'AUTHORISED',
        LineItems: input.lines.map(lineItem),
      };
      const json = await call(
        auth,
        'PUT',
        `/CreditNotes?${UNITDP}`,
        label,
        { CreditNotes: [note] },
        input.idempotencyKey,
      );
      return toCreditNote(firstOf(json, 'CreditNotes', label));
    },

    async allocateCreditNote(auth, creditNoteId, allocation, idempotencyKey) {
      const label = 'Xero credit note allocation';
      await call(
        auth,
        'PUT',
        `/CreditNotes/${encodeURIComponent(creditNoteId)}/Allocations`,
        label,
        {
          Allocations: [
            { Invoice: { InvoiceID: allocation.invoiceId }, Amount: allocation.amount, Date: allocation.date },
          ],
        },
        idempotencyKey,
      );
    },

    async getCreditNote(auth, creditNoteId: string) {
      const label = 'Xero credit note get';
      return toCreditNote(
        firstOf(
          await call(auth, 'GET', `/CreditNotes/${encodeURIComponent(creditNoteId)}?${UNITDP}`, label),
          'CreditNotes',
          label,
        ),
      );
    },

    async getPayment(auth, paymentId: string) {
      const label = 'Xero payment get';
      const p = firstOf(
        await call(auth, 'GET', `/Payments/${encodeURIComponent(paymentId)}`, label),
        'Payments',
        label,
      );
      const invoice = p['Invoice'] && typeof p['Invoice'] === 'object' ? (p['Invoice'] as Json) : {};
      if (typeof p['Amount'] !== 'number') throw new AccountingError('format', `${label}: Amount is not a number`);
      return {
        paymentId: String(p['PaymentID']),
        status: String(p['Status'] ?? ''),
        amount: p['Amount'],
        invoiceId: typeof invoice['InvoiceID'] === 'string' ? invoice['InvoiceID'] : undefined,
      };
    },
  };
}
