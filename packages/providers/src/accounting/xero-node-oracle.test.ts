/**
 * xero-node, Xero's official SDK, as the oracle of the local stand-in: what the SDK sends, the stand-in
 * takes as Xero does, and what the stand-in answers, the SDK reads. A payment made with the SDK's
 * createPayment (a POST) pays the invoice, and the SDK reads the invoice's AmountDue back. A credit
 * note made with createCreditNotes, allocated with createCreditNoteAllocation and refunded with
 * createPayments (a payment on the credit note) reads back through the SDK as Xero documents it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountingApi, CreditNote, Invoice, LineAmountTypes, Payment } from 'xero-node';

import { adapters, connect, startStandIn } from './accounting.test-helpers.js';
import type { RunningLocalAccounting } from './local/local-accounting.server.js';

let local: RunningLocalAccounting;
let sdk: AccountingApi;
const TENANT = 'oracle-org';

beforeAll(async () => {
  local = await startStandIn({ tenants: [{ tenantId: TENANT, tenantName: 'Oracle' }], taxRates: { NONE: 0 } });
  sdk = new AccountingApi(`${local.url}/api.xro/2.0`);
  sdk.accessToken = (await connect(adapters(local).oauth)).accessToken;
});
afterAll(() => local.close());

describe('the stand-in read and written by xero-node', () => {
  it("takes the SDK's createPayment and shows the lower AmountDue through the SDK's getInvoice", async () => {
    const contact = await sdk.createContacts(TENANT, {
      contacts: [{ name: 'Oracle Customer', contactNumber: 'erp-partner-77' }],
    });
    const contactID = contact.body.contacts![0]!.contactID!;
    const created = await sdk.createInvoices(TENANT, {
      invoices: [
        {
          type: Invoice.TypeEnum.ACCREC,
          contact: { contactID },
          reference: 'INV/2026/0077',
          date: '2026-11-27',
          lineAmountTypes: LineAmountTypes.Exclusive,
          status: Invoice.StatusEnum.AUTHORISED,
          lineItems: [
            { description: 'Roller shade', quantity: 2, unitAmount: 137.5, accountCode: '200', taxType: 'NONE' },
          ],
        },
      ],
    });
    const invoiceID = created.body.invoices![0]!.invoiceID!;
    expect(created.body.invoices![0]!.total).toBe(275);

    const paid = await sdk.createPayment(TENANT, {
      invoice: { invoiceID },
      account: { code: '090' },
      amount: 100,
      date: '2026-11-27',
    } as Payment);
    expect(paid.body.payments![0]!.amount).toBe(100);

    const back = await sdk.getInvoice(TENANT, invoiceID);
    expect(back.body.invoices![0]!.amountDue).toBe(175);
    expect(back.body.invoices![0]!.amountPaid).toBe(100);
  });

  it("takes the SDK's credit note, its allocation and its refund, and the SDK reads them back", async () => {
    const contact = await sdk.createContacts(TENANT, {
      contacts: [{ name: 'Credit Customer', contactNumber: 'erp-partner-78' }],
    });
    const contactID = contact.body.contacts![0]!.contactID!;
    const created = await sdk.createInvoices(TENANT, {
      invoices: [
        {
          type: Invoice.TypeEnum.ACCREC,
          contact: { contactID },
          reference: 'INV/2026/0078',
          date: '2026-11-27',
          lineAmountTypes: LineAmountTypes.Exclusive,
          status: Invoice.StatusEnum.AUTHORISED,
          lineItems: [
            { description: 'Roman shade', quantity: 1, unitAmount: 200, accountCode: '200', taxType: 'NONE' },
          ],
        },
      ],
    });
    const invoiceID = created.body.invoices![0]!.invoiceID!;
    const note = await sdk.createCreditNotes(
      TENANT,
      {
        creditNotes: [
          {
            type: CreditNote.TypeEnum.ACCRECCREDIT,
            contact: { contactID },
            date: '2026-11-28',
            reference: 'RINV/2026/0001',
            lineAmountTypes: LineAmountTypes.Exclusive,
            status: CreditNote.StatusEnum.AUTHORISED,
            lineItems: [{ description: 'Refund', quantity: 1, unitAmount: 50, accountCode: '200', taxType: 'NONE' }],
          },
        ],
      },
      false,
      4,
      'oracle-credit-note-1',
    );
    const creditNoteID = note.body.creditNotes![0]!.creditNoteID!;
    expect(note.body.creditNotes![0]).toMatchObject({ total: 50, remainingCredit: 50 });

    await sdk.createCreditNoteAllocation(TENANT, creditNoteID, {
      allocations: [{ invoice: { invoiceID }, amount: 30, date: '2026-11-28' }],
    });
    const refund = await sdk.createPayments(TENANT, {
      payments: [{ creditNote: { creditNoteID }, account: { code: '090' }, amount: 20, date: '2026-11-28' } as Payment],
    });
    expect(refund.body.payments![0]!.amount).toBe(20);

    const back = await sdk.getCreditNote(TENANT, creditNoteID);
    expect(back.body.creditNotes![0]).toMatchObject({ remainingCredit: 0, status: CreditNote.StatusEnum.PAID });
    expect(back.body.creditNotes![0]!.allocations![0]!.amount).toBe(30);
    const inv = await sdk.getInvoice(TENANT, invoiceID);
    expect(inv.body.invoices![0]!.amountDue).toBe(170);
    expect(inv.body.invoices![0]!.amountCredited).toBe(30);
    // Xero refuses a refund beyond the remaining credit (xero-node rejects with the response as JSON text).
    await expect(
      sdk.createPayments(TENANT, {
        payments: [
          { creditNote: { creditNoteID }, account: { code: '090' }, amount: 1, date: '2026-11-28' } as Payment,
        ],
      }),
    ).rejects.toMatch(/"statusCode":400/);
  });
});
