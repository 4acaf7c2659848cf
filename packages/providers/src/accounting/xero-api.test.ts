import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AccountingAuth, AccountingError, type CreateInvoiceInput } from './accounting.port.js';
import { adapters, connect, rejection, startStandIn } from './accounting.test-helpers.js';
import type { RunningLocalAccounting } from './local/local-accounting.server.js';
import { parseXeroDate } from './xero/xero-http.js';

const invoiceInput = (contactId: string, reference: string): CreateInvoiceInput => ({
  contactId,
  reference,
  date: '2026-01-10',
  dueDate: '2026-01-24',
  lineAmountTypes: 'Exclusive',
  status: 'AUTHORISED',
  lines: [
    { description: 'Roller blinds x3', quantity: 3, unitAmount: 120, accountCode: '200', taxType: 'OUTPUT' },
    { description: 'Installation', quantity: 1, unitAmount: 50, accountCode: '200' },
  ],
});

describe('Xero accounting API adapter against the local stand-in', () => {
  let local: RunningLocalAccounting;
  let api: ReturnType<typeof adapters>['api'];
  let auth: AccountingAuth;
  beforeAll(async () => {
    local = await startStandIn({
      tenants: [
        { tenantId: 'tenant-a', tenantName: 'Blinds & Co' },
        { tenantId: 'tenant-b', tenantName: 'Shutters Ltd' },
      ],
    });
    const a = adapters(local);
    api = a.api;
    auth = { accessToken: (await connect(a.oauth)).accessToken, tenantId: 'tenant-a' };
  });
  afterAll(() => local.close());

  it('creates a contact once and updates it when upserted again with the same contact number', async () => {
    const first = await api.upsertContact(auth, {
      name: 'Jane Doe',
      email: 'jane@example.com',
      contactNumber: 'ERP-P-42',
    });
    const again = await api.upsertContact(auth, {
      name: 'Jane Doe-Smith',
      phone: '+1 650 555 1212',
      contactNumber: 'ERP-P-42',
    });
    expect(again.contactId).toBe(first.contactId);
    const stored = local.contacts('tenant-a').filter((c) => c['ContactNumber'] === 'ERP-P-42');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      Name: 'Jane Doe-Smith',
      EmailAddress: 'jane@example.com',
      Phones: [{ PhoneType: 'DEFAULT', PhoneNumber: '+1 650 555 1212' }],
    });
    const sent = local.requests.filter((r) => r.path === '/api.xro/2.0/Contacts').map((r) => r.method);
    expect(sent).toEqual(['GET', 'PUT', 'GET', 'POST']);
  });

  it('keeps contact numbers with quotes intact in the where filter', async () => {
    const a = await api.upsertContact(auth, { name: 'Quote "Q" Test', contactNumber: 'ERP-"7"' });
    const b = await api.upsertContact(auth, { name: 'Quote "Q" Test', contactNumber: 'ERP-"7"' });
    expect(b.contactId).toBe(a.contactId);
  });

  it('creates an AUTHORISED invoice, finds it by reference and reads it back', async () => {
    const { contactId } = await api.upsertContact(auth, { name: 'Invoice Person', contactNumber: 'ERP-P-1' });
    const created = await api.createInvoice(auth, invoiceInput(contactId, 'JOB-1042'));
    // 3 × 120 with 10 % OUTPUT tax + 50 without TaxType: account 200's default tax (OUTPUT) applies
    expect(created).toMatchObject({ status: 'AUTHORISED', total: 451 });
    expect(created.invoiceNumber).toMatch(/^INV-\d{4}$/);
    const found = await api.findInvoiceByReference(auth, 'JOB-1042');
    expect(found).toMatchObject({
      invoiceId: created.invoiceId,
      reference: 'JOB-1042',
      amountDue: 451,
      amountPaid: 0,
      payments: [],
    });
    expect(await api.findInvoiceByReference(auth, 'JOB-none')).toBeNull();
    expect(await api.getInvoice(auth, created.invoiceId)).toEqual(found);
  });

  it('reads payments with their MS-JSON dates', async () => {
    const { contactId } = await api.upsertContact(auth, { name: 'Payer', contactNumber: 'ERP-P-2' });
    const inv = await api.createInvoice(auth, invoiceInput(contactId, 'JOB-2000'));
    local.recordPayment({ tenantId: 'tenant-a', invoiceId: inv.invoiceId, amount: 100, date: '2026-01-31' });
    const got = await api.getInvoice(auth, inv.invoiceId);
    expect(got).toMatchObject({ status: 'AUTHORISED', amountPaid: 100, amountDue: 351 });
    expect(got.payments).toHaveLength(1);
    expect(got.payments[0]?.date.toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });

  it('parses MS-JSON and ISO dates', () => {
    expect(parseXeroDate('/Date(1552327126164)/')?.toISOString()).toBe('2019-03-11T17:58:46.164Z');
    expect(parseXeroDate('/Date(1552327126164+0000)/')?.getTime()).toBe(1552327126164);
    expect(parseXeroDate('2026-01-10T00:00:00')?.toISOString()).toBe('2026-01-10T00:00:00.000Z');
    expect(parseXeroDate('garbage')).toBeUndefined();
  });

  it('turns a refused invoice into a validation error with the provider message', async () => {
    const { contactId } = await api.upsertContact(auth, { name: 'Bad Lines', contactNumber: 'ERP-P-3' });
    const input = invoiceInput(contactId, 'JOB-BAD');
    input.lines = [{ description: 'x', quantity: 1, unitAmount: 1, accountCode: '200', taxType: 'NOPE' }];
    const e = await rejection<AccountingError>(api.createInvoice(auth, input));
    expect(e.kind).toBe('validation');
    expect(e.details[0]).toContain("TaxType code 'NOPE'");
    expect(e.retryable).toBe(false);
  });

  it('answers not_found for an unknown invoice id', async () => {
    expect((await rejection<AccountingError>(api.getInvoice(auth, '00000000-0000-0000-0000-000000000000'))).kind).toBe(
      'not_found',
    );
  });

  it('refuses a tenant the token is not connected to (forbidden)', async () => {
    const e = await rejection<AccountingError>(api.getInvoice({ ...auth, tenantId: 'tenant-zzz' }, 'x'));
    expect(e.kind).toBe('forbidden');
    expect(e.message).not.toContain(auth.accessToken);
  });

  it('keeps each tenant’s data apart', async () => {
    const { contactId } = await api.upsertContact(
      { ...auth, tenantId: 'tenant-b' },
      { name: 'B person', contactNumber: 'ERP-P-1' },
    );
    expect(local.contacts('tenant-b').map((c) => c['ContactID'])).toEqual([contactId]);
    expect(await api.findInvoiceByReference({ ...auth, tenantId: 'tenant-b' }, 'JOB-1042')).toBeNull();
  });
});

describe('Xero rate limit (60 calls per minute per tenant)', () => {
  it('answers 429 with Retry-After as a typed rate_limited error, per tenant, and recovers after a minute', async () => {
    // A frozen clock: only advanceTime moves it, so a slow machine cannot shift the window.
    const frozen = new Date();
    const local = await startStandIn({
      now: () => frozen,
      tenants: [
        { tenantId: 't1', tenantName: 'One' },
        { tenantId: 't2', tenantName: 'Two' },
      ],
    });
    try {
      const { oauth, api } = adapters(local);
      const auth = { accessToken: (await connect(oauth)).accessToken, tenantId: 't1' };
      for (let i = 0; i < 60; i++) expect(await api.findInvoiceByReference(auth, `R-${i}`)).toBeNull();
      local.advanceTime(20_000);
      const e = await rejection<AccountingError>(api.findInvoiceByReference(auth, 'R-61'));
      expect(e.kind).toBe('rate_limited');
      expect(e.status).toBe(429);
      expect(e.retryable).toBe(true);
      expect(e.retryAfterSeconds).toBe(40);
      expect(await api.findInvoiceByReference({ ...auth, tenantId: 't2' }, 'R-x')).toBeNull();
      local.advanceTime(41_000);
      expect(await api.findInvoiceByReference(auth, 'R-62')).toBeNull();
    } finally {
      await local.close();
    }
  });
});
