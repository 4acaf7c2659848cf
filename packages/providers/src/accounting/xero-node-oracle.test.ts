/**
 * xero-node, Xero's official SDK, as the oracle of the local stand-in: what the SDK sends, the stand-in
 * takes as Xero does, and what the stand-in answers, the SDK reads. A payment made with the SDK's
 * createPayment (a POST) pays the invoice, and the SDK reads the invoice's AmountDue back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountingApi, Invoice, LineAmountTypes, Payment } from 'xero-node';

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
});
