/**
 * Invoice and purchase-order PDFs against each tenant's own embedded ERP: the office's downloads name
 * every line and the total; a posted invoice is stored at its first download and never changes after
 * a rebrand while a draft is drawn fresh; the portal lists and serves only its own order's invoices;
 * other tenants, technicians, bad ids and a plan without pdf_reports are refused.
 */
import { invoiceOrder } from '@platform/erp-embedded/testing';
import { featureMissing, PLANS } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { threeWindows } from '../../testing/quote-fixtures.js';
import { pdfPages } from './pdf-reader.test-support.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

async function get(url: string, headers: Record<string, string>) {
  const r = await k.kit.app.inject({ method: 'GET', url, headers });
  return { status: r.statusCode, headers: r.headers, bytes: r.rawPayload, json: () => r.json() };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const onHost = (tenantId: string) => ({ 'x-tenant-id': tenantId });
const textOf = (pdf: Buffer) => pdfPages(pdf).join('\n');
const usd = (x: number) => x.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

/** A quote sent through the platform, its order confirmed and invoiced (posted) in tenant A's ERP. */
async function invoicedQuote() {
  const q = (await k.call('POST', '/sales/quotes', k.a.office, threeWindows)).body;
  const sent = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office);
  const move = await invoiceOrder(k.a.erp.erp, q.sale_order_id);
  return { q, token: sent.body.token as string, move };
}

describe('invoice PDFs', () => {
  it('gives the office the posted invoice with every line and the total, the same bytes after a rebrand', async () => {
    const { move } = await invoicedQuote();
    const [inv] = await k.a.erp.erp.read('account.move', [move], ['name', 'amount_total']);
    const r = await get(`/invoices/${move}/pdf`, bearer(k.a.office));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe(
      `attachment; filename="invoice-${String(inv!.name).replace(/[^A-Za-z0-9_-]+/g, '-')}.pdf"`,
    );
    const text = textOf(r.bytes);
    expect(text).toContain(`Invoice ${inv!.name}`);
    expect(text).toContain('Dana Whitfield');
    for (const room of ['Kitchen', 'Den', 'Bedroom']) expect(text).toContain(room);
    expect(text).toMatch(new RegExp(`Total\\s+\\${usd(Number(inv!.amount_total))}`));
    expect(text).toMatch(new RegExp(`Amount due as of .*\\${usd(Number(inv!.amount_total))}`));

    expect(
      (await k.call('PUT', `/api/tenants/${k.a.id}/settings`, k.a.owner, { company_name: 'Renamed Co' })).status,
    ).toBe(200);
    const again = await get(`/invoices/${move}/pdf`, bearer(k.a.owner));
    expect(again.bytes.equals(r.bytes)).toBe(true);
    const stored = await k.kit.t.db.query(
      'SELECT pdf_key FROM invoice_documents WHERE tenant_id = $1 AND move_id = $2',
      [k.a.id, move],
    );
    expect(stored.rows[0]!.pdf_key).toMatch(new RegExp(`^${k.a.id}/documents/invoice-${move}-`));
  });

  it('draws a draft invoice fresh each time and stores nothing for it', async () => {
    const erp = k.a.erp.erp;
    const partner = await erp.create('res.partner', { name: 'Eli Draft' });
    const [journal] = await erp.search('account.journal', [['type', '=', 'sale']], { limit: 1 });
    const move = await erp.create('account.move', {
      move_type: 'out_invoice',
      partner_id: partner,
      journal_id: journal,
      invoice_line_ids: [[0, 0, { name: 'Motor service call', quantity: 1, price_unit: 95 }]],
    });
    const text = textOf((await get(`/invoices/${move}/pdf`, bearer(k.a.office))).bytes);
    expect(text).toContain('Draft invoice');
    expect(text).toMatch(/Motor service call\s+1\s+\$95\.00/);
    await k.call('PUT', `/api/tenants/${k.a.id}/settings`, k.a.owner, { company_name: 'Draft Renamed Co' });
    expect(textOf((await get(`/invoices/${move}/pdf`, bearer(k.a.office))).bytes)).toContain('Draft Renamed Co');
    const rows = await k.kit.t.db.query('SELECT 1 FROM invoice_documents WHERE move_id = $1 AND tenant_id = $2', [
      move,
      k.a.id,
    ]);
    expect(rows.rowCount).toBe(0);
  });

  it('refuses another tenant, a technician, a bad id and an id that is no invoice', async () => {
    const { move } = await invoicedQuote();
    expect((await get(`/invoices/${move}/pdf`, bearer(k.b.office))).status).toBe(404);
    expect((await get(`/invoices/${move}/pdf`, bearer(k.a.technician))).status).toBe(403);
    const bad = await get('/invoices/abc/pdf', bearer(k.a.office));
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('id');
    expect((await get('/invoices/999999/pdf', bearer(k.a.office))).json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it("lists and serves through the portal only the invoices of the link's own order", async () => {
    const { token, move } = await invoicedQuote();
    const other = await invoicedQuote();
    const list = await get(`/portal/quotes/${token}/invoices`, onHost(k.a.id));
    expect(list.status).toBe(200);
    expect(list.json().invoices).toEqual([expect.objectContaining({ id: move, state: 'posted' })]);
    const pdf = await get(`/portal/quotes/${token}/invoices/${move}/pdf`, onHost(k.a.id));
    expect(pdf.status).toBe(200);
    expect(textOf(pdf.bytes)).toContain('Bedroom');
    expect((await get(`/portal/quotes/${token}/invoices/${other.move}/pdf`, onHost(k.a.id))).status).toBe(404);
    expect((await get(`/portal/quotes/${token}/invoices`, onHost(k.b.id))).status).toBe(404);
    const audit = await k.kit.t.db.query(
      `SELECT detail FROM audit_log WHERE tenant_id = $1 AND action = 'portal.invoice.pdf'`,
      [k.a.id],
    );
    expect(audit.rows.map((r) => r.detail)).toContainEqual({ invoice_id: move });
  });

  it('is refused with PLAN_FEATURE_MISSING on a plan without pdf_reports', async () => {
    const { move, token } = await invoicedQuote();
    const spy = vi.spyOn(k.kit.deps.plans, 'assertFeature').mockImplementation(async (_q, _t, feature) => {
      if (feature === 'pdf_reports') throw featureMissing(PLANS.free, feature);
    });
    try {
      expect((await get(`/invoices/${move}/pdf`, bearer(k.a.office))).json()).toMatchObject({
        code: 'PLAN_FEATURE_MISSING',
      });
      expect((await get(`/portal/quotes/${token}/invoices`, onHost(k.a.id))).status).toBe(403);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('purchase-order PDFs', () => {
  it('names the supplier, every line with quantity and cost, and the total; other tenants get 404', async () => {
    const erp = k.a.erp.erp;
    const supplier = await erp.create('res.partner', { name: 'Hunter Fabrics Ltd', city: 'Leeds' });
    const po = await erp.create('purchase.order', {
      partner_id: supplier,
      order_line: [
        [0, 0, { name: 'Linen fabric roll', product_qty: 3, price_unit: 40.5 }],
        [0, 0, { name: 'Motor kit', product_qty: 2, price_unit: 120 }],
      ],
    });
    const [row] = await erp.read('purchase.order', [po], ['name', 'amount_total']);
    const r = await get(`/purchase-orders/${po}/pdf`, bearer(k.a.office));
    expect(r.status).toBe(200);
    const text = textOf(r.bytes);
    expect(text).toContain(`Request for quotation ${row!.name}`);
    expect(text).toContain('Hunter Fabrics Ltd');
    expect(text).toMatch(/Linen fabric roll\s+3\s+\$40\.50\s+\$121\.50/);
    expect(text).toMatch(/Motor kit\s+2\s+\$120\.00\s+\$240\.00/);
    expect(text).toMatch(new RegExp(`Total\\s+\\${usd(Number(row!.amount_total))}`));
    expect((await get(`/purchase-orders/${po + 1000}/pdf`, bearer(k.a.office))).status).toBe(404);
    expect((await get(`/purchase-orders/${po}/pdf`, bearer(k.a.technician))).status).toBe(403);
    const b = await get(`/purchase-orders/${po}/pdf`, bearer(k.b.office));
    expect(b.status).toBe(404);
  });
});
