/**
 * The local stand-in is as strict as Xero where the ERP's totals depend on it, and the adapter
 * speaks to it the way xero-node does: 2-decimal unit amounts unless `unitdp=4`, DiscountRate, the
 * account's default tax for a line without TaxType, scopes checked per call, Idempotency-Key
 * answered with the first result, credits and deleted payments readable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AccountingAuth, AccountingError, type CreateInvoiceInput } from './accounting.port.js';
import { adapters, connect, rejection, startStandIn } from './accounting.test-helpers.js';
import type { RunningLocalAccounting } from './local/local-accounting.server.js';

const line = { description: 'Cord', quantity: 10, unitAmount: 16.9915, accountCode: '200', taxType: 'NONE' };
const input = (contactId: string, reference: string, over: Partial<CreateInvoiceInput> = {}): CreateInvoiceInput => ({
  contactId,
  reference,
  date: '2026-01-10',
  lineAmountTypes: 'Exclusive',
  status: 'AUTHORISED',
  lines: [line],
  ...over,
});

let local: RunningLocalAccounting;
let api: ReturnType<typeof adapters>['api'];
let auth: AccountingAuth;
let contactId: string;
beforeAll(async () => {
  local = await startStandIn({
    tenants: [{ tenantId: 't', tenantName: 'Strict' }],
    taxRates: { NONE: 0, OUTPUT: 0.1, TAX825: 0.0825 },
  });
  const a = adapters(local);
  api = a.api;
  auth = { accessToken: (await connect(a.oauth)).accessToken, tenantId: 't' };
  contactId = (await api.createContact(auth, { name: 'Strict Customer', contactNumber: 'erp-partner-1' })).contactId;
});
afterAll(() => local.close());

const raw = (id: string) => local.invoices('t').find((i) => i['InvoiceID'] === id)!;

describe('rounding like Xero', () => {
  it('keeps 4-decimal unit amounts because the adapter sends unitdp=4 (10 × 16.9915 = 169.92)', async () => {
    const inv = await api.createInvoice(auth, input(contactId, 'R-1'));
    expect(inv.total).toBe(169.92);
    expect(local.requests.filter((r) => r.path === '/api.xro/2.0/Invoices' && r.method === 'PUT')).toHaveLength(1);
  });

  it('rounds unit amounts to 2 decimals for a request without unitdp (169.90), as Xero does', async () => {
    const res = await fetch(`${local.url}/api.xro/2.0/Invoices`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${auth.accessToken}`,
        'xero-tenant-id': 't',
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        Invoices: [
          {
            Type: 'ACCREC',
            Contact: { ContactID: contactId },
            Status: 'AUTHORISED',
            LineItems: [
              { ...line, Description: 'Cord', Quantity: 10, UnitAmount: 16.9915, AccountCode: '200', TaxType: 'NONE' },
            ],
          },
        ],
      }),
    });
    expect(((await res.json()) as { Invoices: { Total: number }[] }).Invoices[0]!.Total).toBe(169.9);
  });

  it('applies DiscountRate and tax per line, and the account default tax to a line without TaxType', async () => {
    const inv = await api.createInvoice(
      auth,
      input(contactId, 'R-2', {
        lines: [
          { ...line, discountRate: 10, taxType: 'TAX825' }, // 152.92 + 12.62
          { description: 'Fitting', quantity: 1, unitAmount: 50, accountCode: '200' }, // account 200 → OUTPUT 10 %: 50 + 5
        ],
      }),
    );
    expect(inv.total).toBe(220.54);
    const lines = raw(inv.invoiceId)['LineItems'] as Record<string, unknown>[];
    expect(lines.map((l) => [l['LineAmount'], l['TaxAmount'], l['TaxType']])).toEqual([
      [152.92, 12.62, 'TAX825'],
      [50, 5, 'OUTPUT'],
    ]);
  });
});

describe('Idempotency-Key', () => {
  it('answers a repeated create with the first result: one invoice, one contact', async () => {
    const a = await api.createInvoice(auth, input(contactId, 'I-1', { idempotencyKey: 'erp:inv:1' }));
    const b = await api.createInvoice(auth, input(contactId, 'I-1', { idempotencyKey: 'erp:inv:1' }));
    expect(b).toEqual(a);
    expect(local.invoices('t').filter((i) => i['Reference'] === 'I-1')).toHaveLength(1);
    const c1 = await api.createContact(auth, { name: 'Once Only', contactNumber: 'erp-partner-9' }, 'erp:contact:9');
    const c2 = await api.createContact(auth, { name: 'Once Only', contactNumber: 'erp-partner-9' }, 'erp:contact:9');
    expect(c2).toEqual(c1);
    expect(local.contacts('t').filter((c) => c['Name'] === 'Once Only')).toHaveLength(1);
  });

  it('refuses a second contact with the same name (Xero: must be unique) without a key', async () => {
    const e = await rejection<AccountingError>(
      api.createContact(auth, { name: 'Once Only', contactNumber: 'erp-partner-10' }),
    );
    expect(e.kind).toBe('validation');
    expect(e.message).toContain('must be unique');
    expect(await api.findContacts(auth, { name: 'Once Only' })).toEqual([
      expect.objectContaining({ contactNumber: 'erp-partner-9' }),
    ]);
  });
});

describe('credits and deleted payments', () => {
  it('reads credit notes, prepayments and overpayments applied, and a deleted payment as DELETED', async () => {
    const inv = await api.createInvoice(
      auth,
      input(contactId, 'C-1', { lines: [{ ...line, quantity: 1, unitAmount: 500 }] }),
    );
    local.setWebhookUrl('http://127.0.0.1:9/nobody-listens'); // deliveries are recorded even when they fail
    const cn = local.recordCredit({ tenantId: 't', invoiceId: inv.invoiceId, kind: 'credit_note', amount: 100 });
    local.recordCredit({ tenantId: 't', invoiceId: inv.invoiceId, kind: 'overpayment', amount: 50 });
    const pay = local.recordPayment({ tenantId: 't', invoiceId: inv.invoiceId, amount: 350 });
    expect(pay.status).toBe('PAID');
    const paid = await api.getInvoice(auth, inv.invoiceId);
    expect(paid).toMatchObject({ status: 'PAID', amountDue: 0, amountPaid: 350, amountCredited: 150 });
    expect(paid.allocations.map((a) => [a.kind, a.appliedAmount])).toEqual([
      ['credit_note', 100],
      ['overpayment', 50],
    ]);
    expect(paid.allocations[0]).toMatchObject({ id: cn.id, number: cn.number });
    // The credit note itself is readable, with its allocation (scope accounting.invoices).
    const res = await fetch(`${local.url}/api.xro/2.0/CreditNotes/${cn.id}`, {
      headers: { authorization: `Bearer ${auth.accessToken}`, 'xero-tenant-id': 't', accept: 'application/json' },
    });
    const note = ((await res.json()) as { CreditNotes: Record<string, any>[] }).CreditNotes[0]!;
    expect(note).toMatchObject({
      CreditNoteID: cn.id,
      Type: 'ACCRECCREDIT',
      Status: 'PAID',
      Total: 100,
      RemainingCredit: 0,
      Allocations: [{ Invoice: { InvoiceID: inv.invoiceId }, Amount: 100 }],
    });
    const events = local.webhooks
      .filter((d) => d.kind === 'event')
      .map((d) => JSON.parse(d.body).events[0].eventCategory);
    expect(events).toEqual(['CREDITNOTE', 'INVOICE', 'INVOICE', 'INVOICE']);
    await local.flushWebhooks();
    local.setWebhookUrl(undefined);
    expect(local.deletePayment({ tenantId: 't', paymentId: pay.paymentId })).toEqual({
      status: 'AUTHORISED',
      amountDue: 350,
    });
    expect((await api.getInvoice(auth, inv.invoiceId)).payments).toEqual([]);
    expect(await api.getPayment(auth, pay.paymentId)).toMatchObject({
      status: 'DELETED',
      amount: 350,
      invoiceId: inv.invoiceId,
    });
  });
});

describe('scopes', () => {
  it('checks the grant’s scopes on every call: 403 (needs reconnect) without accounting.payments', async () => {
    const other = await startStandIn({ tenants: [{ tenantId: 'u', tenantName: 'Narrow' }] });
    try {
      other.setConsentScopes(['offline_access', 'accounting.invoices', 'accounting.contacts']);
      const a = adapters(other);
      const narrow = { accessToken: (await connect(a.oauth)).accessToken, tenantId: 'u' };
      expect(await a.api.findInvoiceByReference(narrow, 'none')).toBeNull();
      const e = await rejection<AccountingError>(a.api.getPayment(narrow, '00000000-0000-0000-0000-000000000000'));
      expect(e).toMatchObject({ kind: 'forbidden', status: 403, needsReconnect: true });
    } finally {
      await other.close();
    }
  });

  it('refuses at authorize a scope the app may not request (invalid_scope)', async () => {
    const other = await startStandIn({
      allowedScopes: ['offline_access', 'accounting.invoices', 'accounting.contacts', 'accounting.payments.read'],
    });
    try {
      await expect(connect(adapters(other).oauth)).rejects.toThrow(/no code: .*error=invalid_scope/);
    } finally {
      await other.close();
    }
  });
});
