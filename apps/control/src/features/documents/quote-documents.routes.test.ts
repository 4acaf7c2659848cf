/**
 * The quote's PDF from the office and from the customer's portal link: every window and the total
 * as pdftotext reads them; another tenant (or a technician) cannot fetch it; a plan without
 * `pdf_reports` is refused; a sent quote's document is stored at the send, attached to the email,
 * and never changes afterwards even when the company's name or colour does.
 */
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

const customer = { ...threeWindows.customer, email: 'dana.pdf@example.com', street: '12 Elm Street' };

async function get(url: string, headers: Record<string, string>) {
  const r = await k.kit.app.inject({ method: 'GET', url, headers });
  return { status: r.statusCode, headers: r.headers, bytes: r.rawPayload, json: () => r.json() };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const onHost = (tenantId: string) => ({ 'x-tenant-id': tenantId });
const textOf = (pdf: Buffer) => pdfPages(pdf).join('\n');

async function newQuote(email = customer.email) {
  const body = { customer: { ...customer, email }, lines: threeWindows.lines };
  return (await k.call('POST', '/sales/quotes', k.a.office, body)).body;
}

describe('quote PDFs', () => {
  it('gives the office a PDF naming every window with its sizes, the total and the customer', async () => {
    const q = await newQuote();
    const r = await get(`/sales/quotes/${q.id}/pdf`, bearer(k.a.office));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toBe(`attachment; filename="quote-${q.name}.pdf"`);
    const text = textOf(r.bytes);
    expect(text).toContain(`Quote ${q.name}`);
    expect(text).toContain('Dana Whitfield');
    expect(text).toMatch(/Kitchen\s+.*35 1\/2 × 47 1\/8\s+inside\s+Linen/);
    expect(text).toMatch(/Den\s+.*36 × 36\s+outside\s+Grey/);
    expect(text).toMatch(/Bedroom\s+.*30 × 50\s+inside\s+White/);
    const total = (q.amount_total as number).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    expect(text).toMatch(new RegExp(`Total\\s+\\${total}`));
  });

  it("refuses another tenant's office, a technician, and another tenant's portal host", async () => {
    const q = await newQuote();
    expect((await get(`/sales/quotes/${q.id}/pdf`, bearer(k.b.office))).status).toBe(404);
    expect((await get(`/sales/quotes/${q.id}/pdf`, bearer(k.a.technician))).status).toBe(403);
    const sent = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office);
    const wrongHost = await get(`/portal/quotes/${sent.body.token}/pdf`, onHost(k.b.id));
    expect(wrongHost.status).toBe(404);
    expect(wrongHost.json().code).toBe('PORTAL_LINK_INVALID');
    expect((await get(`/portal/quotes/not-a-token/pdf`, onHost(k.a.id))).status).toBe(404);
  });

  it('stores the sent document, attaches it to the email, and serves it unchanged after a rebrand', async () => {
    const q = await newQuote('dana.stored@example.com');
    const sent = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office, undefined, {
      'idempotency-key': 'pdf-send-1',
    });
    expect(sent.status).toBe(200);
    const mail = await k.kit.t.db.query<{
      attachments: { filename: string; contentType: string; contentBase64: string }[];
      text: string;
    }>(
      `SELECT o.payload->'attachments' AS attachments, o.payload->>'text' AS text FROM email_messages m JOIN outbox o ON o.aggregate_id = m.id::text
        WHERE m.to_address = $1`,
      ['dana.stored@example.com'],
    );
    const attached = mail.rows[0]!.attachments[0]!;
    expect(attached).toMatchObject({ filename: `quote-${q.name}.pdf`, contentType: 'application/pdf' });
    const emailed = Buffer.from(attached.contentBase64, 'base64');
    expect(textOf(emailed)).toContain('Bedroom');
    expect(mail.rows[0]!.text).toContain('A PDF copy is attached.');
    const before = textOf(emailed);

    const renamed = await k.call('PUT', `/api/tenants/${k.a.id}/settings`, k.a.owner, {
      company_name: 'Renamed Shades Co',
      primary_color: '#0b6e4f',
    });
    expect(renamed.status).toBe(200);
    const office = await get(`/sales/quotes/${q.id}/pdf`, bearer(k.a.office));
    const portal = await get(`/portal/quotes/${sent.body.token}/pdf`, onHost(k.a.id));
    expect(portal.status).toBe(200);
    expect(office.bytes.equals(emailed)).toBe(true);
    expect(portal.bytes.equals(emailed)).toBe(true);
    expect(textOf(portal.bytes)).toBe(before);
    expect(before).not.toContain('Renamed Shades Co');
    // A quote not sent yet is drawn as the company is now.
    expect(textOf((await get(`/sales/quotes/${(await newQuote()).id}/pdf`, bearer(k.a.office))).bytes)).toContain(
      'Renamed Shades Co',
    );
  });

  it('is refused with PLAN_FEATURE_MISSING on a plan without pdf_reports, and a send then attaches nothing', async () => {
    const q = await newQuote();
    const spy = vi.spyOn(k.kit.deps.plans, 'assertFeature').mockImplementation(async (_q, _t, feature) => {
      if (feature === 'pdf_reports') throw featureMissing(PLANS.free, feature);
    });
    try {
      const office = await get(`/sales/quotes/${q.id}/pdf`, bearer(k.a.office));
      expect(office.status).toBe(403);
      expect(office.json()).toMatchObject({ code: 'PLAN_FEATURE_MISSING' });
      const sent = await k.call('POST', `/sales/quotes/${q.id}/send`, k.a.office);
      expect(sent.status).toBe(200);
      const portal = await get(`/portal/quotes/${sent.body.token}/pdf`, onHost(k.a.id));
      expect(portal.status).toBe(403);
      const stored = await k.kit.t.db.query('SELECT sent_pdf_key FROM sales_quotes WHERE id = $1', [q.id]);
      expect(stored.rows[0]).toEqual({ sent_pdf_key: null });
    } finally {
      spy.mockRestore();
    }
  });
});
