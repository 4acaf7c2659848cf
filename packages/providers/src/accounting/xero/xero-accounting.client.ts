/**
 * Xero Accounting API adapter (`{apiUrl}/api.xro/2.0`): contacts and sales invoices.
 * Every call sends `Authorization: Bearer …` and `xero-tenant-id`, asks for JSON and reads
 * Xero's MS-JSON dates. Errors are `AccountingError` (a 429 is `rate_limited` with
 * `retryAfterSeconds`); messages never contain the access token.
 */
import {
  AccountingError,
  type AccountingApi,
  type AccountingAuth,
  type AccountingInvoice,
  type CreateInvoiceInput,
  type CreatedInvoice,
  type InvoiceStatus,
  type UpsertContactInput,
} from '../accounting.port.js';
import { DEFAULT_XERO_TIMEOUT_MS, XERO_API_URL, apiError, parseXeroDate, trimSlash, whereString, xeroRequest } from './xero-http.js';

export interface XeroAccountingClientOptions {
  /** Default `https://api.xero.com`; the accounting API lives under `/api.xro/2.0`. */
  apiUrl?: string;
  timeoutMs?: number;
}

type Json = Record<string, unknown>;
const STATUSES = new Set<InvoiceStatus>(['DRAFT', 'SUBMITTED', 'AUTHORISED', 'PAID', 'VOIDED', 'DELETED']);

const fail = (msg: string): never => {
  throw new AccountingError('format', `Xero invoice: ${msg}`);
};
const num = (v: unknown, field: string): number => (typeof v === 'number' && Number.isFinite(v) ? v : fail(`${field} is not a number`));

function toInvoice(raw: unknown): AccountingInvoice {
  const inv = (raw ?? {}) as Json;
  const status = inv['Status'];
  if (typeof inv['InvoiceID'] !== 'string' || typeof status !== 'string' || !STATUSES.has(status as InvoiceStatus)) {
    throw new AccountingError('format', 'Xero invoice: missing InvoiceID or unknown Status');
  }
  const payments = Array.isArray(inv['Payments']) ? (inv['Payments'] as Json[]) : [];
  return {
    invoiceId: inv['InvoiceID'],
    invoiceNumber: typeof inv['InvoiceNumber'] === 'string' ? inv['InvoiceNumber'] : '',
    reference: typeof inv['Reference'] === 'string' ? inv['Reference'] : '',
    status: status as InvoiceStatus,
    total: num(inv['Total'], 'Total'),
    amountDue: num(inv['AmountDue'], 'AmountDue'),
    amountPaid: num(inv['AmountPaid'], 'AmountPaid'),
    payments: payments.map((p) => ({
      paymentId: String(p['PaymentID']),
      amount: num(p['Amount'], 'Payments.Amount'),
      date: parseXeroDate(p['Date']) ?? fail('Payments.Date is not a date'),
    })),
  };
}

function firstOf(json: unknown, key: 'Contacts' | 'Invoices', label: string): Json {
  const list = json && typeof json === 'object' ? (json as Json)[key] : undefined;
  if (!Array.isArray(list) || list.length === 0 || !list[0] || typeof list[0] !== 'object') {
    throw new AccountingError('format', `${label}: response without ${key}`);
  }
  return list[0] as Json;
}

export function createXeroAccountingClient(opts: XeroAccountingClientOptions = {}): AccountingApi {
  const base = `${trimSlash(opts.apiUrl ?? XERO_API_URL)}/api.xro/2.0`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_XERO_TIMEOUT_MS;

  async function call(auth: AccountingAuth, method: 'GET' | 'PUT' | 'POST', path: string, label: string, body?: unknown): Promise<unknown> {
    if (!auth.tenantId) throw new AccountingError('forbidden', `${label}: tenantId is required`);
    const headers: Record<string, string> = {
      authorization: `Bearer ${auth.accessToken}`,
      'xero-tenant-id': auth.tenantId,
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
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
    async upsertContact(auth, input: UpsertContactInput) {
      const label = 'Xero contact upsert';
      if (!input.contactNumber) throw new AccountingError('validation', `${label}: contactNumber is required`);
      const where = encodeURIComponent(`ContactNumber==${whereString(input.contactNumber)}`);
      const found = (await call(auth, 'GET', `/Contacts?where=${where}&includeArchived=true`, label)) as Json | undefined;
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
        LineItems: input.lines.map((l) => ({
          Description: l.description,
          Quantity: l.quantity,
          UnitAmount: l.unitAmount,
          AccountCode: l.accountCode,
          ...(l.taxType === undefined ? {} : { TaxType: l.taxType }),
        })),
      };
      if (input.dueDate !== undefined) invoice['DueDate'] = input.dueDate;
      const inv = toInvoice(firstOf(await call(auth, 'PUT', '/Invoices', label, { Invoices: [invoice] }), 'Invoices', label));
      return { invoiceId: inv.invoiceId, invoiceNumber: inv.invoiceNumber, status: inv.status, total: inv.total };
    },

    async findInvoiceByReference(auth, reference: string) {
      const label = 'Xero invoice find';
      const where = encodeURIComponent(`Type=="ACCREC" AND Reference==${whereString(reference)}`);
      const json = (await call(auth, 'GET', `/Invoices?where=${where}&Statuses=DRAFT,SUBMITTED,AUTHORISED,PAID`, label)) as Json | undefined;
      const list = Array.isArray(json?.['Invoices']) ? (json['Invoices'] as unknown[]) : [];
      return list.length === 0 ? null : toInvoice(list[0]);
    },

    async getInvoice(auth, invoiceId: string): Promise<AccountingInvoice> {
      const label = 'Xero invoice get';
      return toInvoice(firstOf(await call(auth, 'GET', `/Invoices/${encodeURIComponent(invoiceId)}`, label), 'Invoices', label));
    },
  };
}
