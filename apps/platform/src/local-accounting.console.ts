/**
 * The accounting stand-in's controls on the local console (embedded mode only), so a person can see
 * every accounting case work with nothing configured. Each changes the stand-in as Xero's UI would and
 * sends the notice Xero sends (INVOICE, CREDITNOTE, CONTACT updates) to the company's ERP host:
 *
 * - `GET /acct`: every organisation's invoices (credit notes, payments) and contacts, with forms;
 * - `POST /acct/payments {invoice_id, amount}`: pays an invoice;
 * - `POST /acct/payments/delete {payment_id}`: deletes a payment;
 * - `POST /acct/credit-notes {invoice_id, amount}`: adds a credit note allocated to the invoice;
 * - `POST /acct/credit-notes/remove {credit_note_id}`: removes it (its allocation, then voided);
 * - `POST /acct/contacts/edit {contact_id, name?, email?}`: edits a contact.
 *
 * Bodies are JSON (answered with JSON) or a form (answered with a redirect to the page). The
 * organisation is found from the id. A POST from another origin (a web page the person has open) is refused.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { RunningLocalAccounting } from '@platform/providers/local';

import { renderAccountingPage } from './local-accounting.page.js';

type Fields = Record<string, string>;
type Control = (acc: RunningLocalAccounting, f: Fields) => unknown;

/** The organisation (stand-in tenant) whose invoices or contacts hold `has`. */
function organisationOf(acc: RunningLocalAccounting, has: (org: string) => boolean): string {
  const org = acc.tenants.find((t) => has(t.tenantId));
  if (!org) throw new Error('No organisation at the stand-in has that id');
  return org.tenantId;
}
const invoiceOrg = (acc: RunningLocalAccounting, id: string) =>
  organisationOf(acc, (t) => acc.invoices(t).some((i) => i['InvoiceID'] === id));
const inInvoices = (acc: RunningLocalAccounting, list: string, key: string, id: string) =>
  organisationOf(acc, (t) =>
    acc.invoices(t).some((i) => ((i[list] ?? []) as Record<string, unknown>[]).some((x) => x[key] === id)),
  );

function required(f: Fields, name: string): string {
  const v = f[name]?.trim();
  if (!v) throw new Error(`${name} is required`);
  return v;
}
function amountOf(f: Fields): number {
  const raw = required(f, 'amount');
  // Checked as written: 34.87 * 100 is not 3487 in floating point.
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(raw) || Number(raw) <= 0)
    throw new Error('amount must be a positive amount with at most 2 decimals');
  return Number(raw);
}

export const ACCOUNTING_CONTROLS: Record<string, Control> = {
  '/acct/payments': (acc, f) =>
    acc.recordPayment({
      invoiceId: required(f, 'invoice_id'),
      amount: amountOf(f),
      tenantId: invoiceOrg(acc, f.invoice_id!),
    }),
  '/acct/payments/delete': (acc, f) => {
    const id = required(f, 'payment_id');
    return acc.deletePayment({ paymentId: id, tenantId: inInvoices(acc, 'Payments', 'PaymentID', id) });
  },
  '/acct/credit-notes': (acc, f) =>
    acc.recordCredit({
      invoiceId: required(f, 'invoice_id'),
      kind: 'credit_note',
      amount: amountOf(f),
      tenantId: invoiceOrg(acc, f.invoice_id!),
    }),
  '/acct/credit-notes/remove': (acc, f) => {
    const id = required(f, 'credit_note_id');
    return acc.removeAllocation({ id, tenantId: inInvoices(acc, 'CreditNotes', 'CreditNoteID', id) });
  },
  '/acct/contacts/edit': (acc, f) => {
    const id = required(f, 'contact_id');
    const name = f.name?.trim();
    const email = f.email?.trim();
    if (!name && email === undefined) throw new Error('name or email is required');
    const tenantId = organisationOf(acc, (t) => acc.contacts(t).some((c) => c['ContactID'] === id));
    acc.editContact({ contactId: id, ...(name ? { name } : {}), ...(email !== undefined ? { email } : {}), tenantId });
    return { contact_id: id };
  },
};

async function fieldsOf(req: IncomingMessage): Promise<{ fields: Fields; form: boolean }> {
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (type === 'application/x-www-form-urlencoded')
    return { fields: Object.fromEntries(new URLSearchParams(raw)), form: true };
  const b = JSON.parse(raw || '{}') as Record<string, unknown>;
  const fields = Object.fromEntries(
    Object.entries(b).map(([k, v]) => [k, typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '']),
  );
  return { fields, form: false };
}

/** Serves the accounting page and controls; false when the request is not one of them. */
export async function serveAccountingConsole(
  req: IncomingMessage,
  res: ServerResponse,
  acc: RunningLocalAccounting,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://console');
  if (req.method === 'GET' && url.pathname === '/acct') {
    const page = renderAccountingPage(acc, url.searchParams.get('error') ?? undefined);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    });
    return (res.end(page), true);
  }
  const control = req.method === 'POST' ? ACCOUNTING_CONTROLS[url.pathname] : undefined;
  if (!control) return false;
  const json = (status: number, body: unknown) =>
    void res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`)
    return (json(403, { error: 'controls are taken from the console itself only' }), true);
  let form = false;
  try {
    const parsed = await fieldsOf(req);
    form = parsed.form;
    const result = control(acc, parsed.fields);
    if (form) res.writeHead(303, { location: '/acct' }).end();
    else json(200, result);
  } catch (e) {
    const message = (e as Error).message;
    if (form) res.writeHead(303, { location: `/acct?error=${encodeURIComponent(message)}` }).end();
    else json(400, { error: message });
  }
  return true;
}
