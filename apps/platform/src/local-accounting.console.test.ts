/**
 * The accounting stand-in's console controls, driven over HTTP as a person's browser (forms) or a
 * script (JSON) would: each changes the stand-in as Xero does, is read back through the provider's API,
 * and sends the notice Xero sends to the organisation's app.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { AccountingAuth } from '@platform/providers';
import {
  adapters,
  connect,
  REDIRECT_URI,
  startStandIn,
} from '@platform/providers/accounting/accounting.test-helpers.js';
import type { RunningLocalAccounting } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { serveConsole } from './local-providers.console.js';

let local: RunningLocalAccounting;
let consoleServer: Server;
let base: string;
let receiver: Server;
let auth: AccountingAuth;
/** Notices received, as "CATEGORY/TYPE resourceId". */
const notices: string[] = [];

const listen = async (s: Server): Promise<string> => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += String(c)));
    req.on('end', () => {
      for (const e of (JSON.parse(raw) as { events: Record<string, string>[] }).events)
        notices.push(`${e['eventCategory']}/${e['eventType']} ${e['resourceId']}`);
      res.writeHead(200).end();
    });
  });
  const hook = await listen(receiver);
  local = await startStandIn({
    webhookUrl: hook,
    tenants: [{ tenantId: 'org-a', tenantName: 'A Blinds' }],
    apps: [
      {
        clientId: 'client-b',
        clientSecret: 'client-b-secret-0123456789',
        redirectUris: [REDIRECT_URI],
        webhookKey: 'client-b-webhook-key-0123456789abcdef',
        tenants: [{ tenantId: 'org-b', tenantName: 'B Shutters' }],
      },
    ],
  });
  const t = await connect(adapters(local).oauth);
  auth = { accessToken: t.accessToken, tenantId: 'org-a' };
  consoleServer = createServer((req, res) => void serveConsole(req, res, { accounting: local }));
  base = await listen(consoleServer);
});
afterAll(async () => {
  await new Promise((r) => consoleServer?.close(r));
  await local?.close();
  await new Promise((r) => receiver?.close(r));
});

const api = () => adapters(local).api;
async function invoiceOf(name: string, reference: string) {
  const { contactId } = await api().upsertContact(auth, { name, contactNumber: `ERP-${reference}` });
  const inv = await api().createInvoice(auth, {
    contactId,
    reference,
    date: '2026-11-02',
    lineAmountTypes: 'Exclusive',
    status: 'AUTHORISED',
    lines: [{ description: 'Roller blind', quantity: 1, unitAmount: 122.61, accountCode: '200' }],
  });
  return { contactId, invoiceId: inv.invoiceId };
}
const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const postForm = (path: string, fields: Record<string, string>) =>
  fetch(`${base}${path}`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
const noticesFor = async (id: string) => {
  await local.flushWebhooks();
  return notices.filter((n) => n.endsWith(` ${id}`));
};

describe('the accounting controls of the local console', () => {
  it('adds a credit note to an invoice and removes it: amount due drops and comes back, the note reads VOIDED, notices sent', async () => {
    const { invoiceId } = await invoiceOf('Credit Person', 'JOB-CN');
    expect((await api().getInvoice(auth, invoiceId)).amountDue).toBe(134.87);
    const added = await postJson('/acct/credit-notes', { invoice_id: invoiceId, amount: 34.87 });
    expect(added.status).toBe(200);
    const note = (await added.json()) as { id: string; amountDue: number };
    expect(note.amountDue).toBe(100);
    expect(await api().getInvoice(auth, invoiceId)).toMatchObject({ amountDue: 100, amountCredited: 34.87 });
    expect(await noticesFor(note.id)).toEqual([`CREDITNOTE/CREATE ${note.id}`]);

    const removed = await postForm('/acct/credit-notes/remove', { credit_note_id: note.id });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('/acct');
    expect(await api().getInvoice(auth, invoiceId)).toMatchObject({ amountDue: 134.87, amountCredited: 0 });
    const read = await fetch(`${local.url}/api.xro/2.0/CreditNotes/${note.id}`, {
      headers: { authorization: `Bearer ${auth.accessToken}`, 'xero-tenant-id': 'org-a', accept: 'application/json' },
    });
    expect(((await read.json()) as { CreditNotes: unknown[] }).CreditNotes[0]).toMatchObject({ Status: 'VOIDED' });
    expect(await noticesFor(note.id)).toEqual([`CREDITNOTE/CREATE ${note.id}`, `CREDITNOTE/UPDATE ${note.id}`]);
    expect(await noticesFor(invoiceId)).toEqual([`INVOICE/UPDATE ${invoiceId}`, `INVOICE/UPDATE ${invoiceId}`]);
  });

  it('pays an invoice and deletes the payment from forms: the invoice owes it again and is notified', async () => {
    const { invoiceId } = await invoiceOf('Paying Person', 'JOB-PAY');
    expect((await postForm('/acct/payments', { invoice_id: invoiceId, amount: '134.87' })).status).toBe(303);
    const paid = await api().getInvoice(auth, invoiceId);
    expect(paid).toMatchObject({ status: 'PAID', amountDue: 0 });
    const paymentId = paid.payments[0]!.paymentId;
    expect((await postForm('/acct/payments/delete', { payment_id: paymentId })).status).toBe(303);
    expect(await api().getInvoice(auth, invoiceId)).toMatchObject({
      status: 'AUTHORISED',
      amountDue: 134.87,
      payments: [],
    });
    expect(await noticesFor(invoiceId)).toHaveLength(2);
  });

  it("edits a contact's name and email as Xero's screen does, and sends CONTACT/UPDATE", async () => {
    const { contactId } = await invoiceOf('Old Name', 'JOB-CONTACT');
    const r = await postJson('/acct/contacts/edit', {
      contact_id: contactId,
      name: 'New Name',
      email: 'new@example.com',
    });
    expect(r.status).toBe(200);
    expect(await api().findContacts(auth, { contactNumber: 'ERP-JOB-CONTACT' })).toMatchObject([
      { contactId, name: 'New Name', email: 'new@example.com' },
    ]);
    expect(await noticesFor(contactId)).toEqual([`CONTACT/UPDATE ${contactId}`]);
  });

  it('refuses what Xero refuses, naming why, on JSON and on the page; refuses another origin', async () => {
    const { invoiceId } = await invoiceOf('Refused Person', 'JOB-NO');
    const over = await postJson('/acct/credit-notes', { invoice_id: invoiceId, amount: 500 });
    expect(over.status).toBe(400);
    expect(((await over.json()) as { error: string }).error).toContain('exceeds the amount outstanding');
    expect((await postJson('/acct/credit-notes', { invoice_id: invoiceId })).status).toBe(400);
    expect((await postJson('/acct/payments/delete', { payment_id: 'nope' })).status).toBe(400);
    const form = await postForm('/acct/credit-notes', { invoice_id: invoiceId, amount: '500' });
    expect(form.status).toBe(303);
    const page = await (await fetch(`${base}${form.headers.get('location')!}`)).text();
    expect(page).toContain('exceeds the amount outstanding');
    const foreign = await postJson(
      '/acct/payments',
      { invoice_id: invoiceId, amount: 1 },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect((await api().getInvoice(auth, invoiceId)).amountDue).toBe(134.87);
  });

  it("shows every organisation's invoices with what they owe and their controls, names escaped", async () => {
    await invoiceOf('<b>Bold</b> & Co', 'JOB-PAGE');
    const res = await fetch(`${base}/acct`);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    expect(page).toContain('A Blinds');
    expect(page).toContain('B Shutters');
    expect(page).toContain('&lt;b&gt;Bold&lt;/b&gt; &amp; Co');
    expect(page).not.toContain('<b>Bold</b>');
    for (const action of ['/acct/credit-notes', '/acct/payments', '/acct/contacts/edit'])
      expect(page).toContain(`action="${action}"`);
    const listed = (await (await fetch(`${base}/`)).json()) as { accounting: { organisation: string }[] };
    expect(listed.accounting.map((o) => o.organisation)).toEqual(['A Blinds', 'B Shutters']);
  });
});
