/**
 * The customer portal API: a quote seen and accepted through its link on the tenant's host; every
 * wrong link (unknown, expired, revoked, another tenant's host) gets the same 404; all audited.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';

let k: CrmSalesKit;

const onHost = (tenantId: string) => ({ 'x-tenant-id': tenantId });

beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

/** A quote of its own, sent to the customer: each case starts from a fresh link, whatever ran before it. */
async function sentQuote(): Promise<{ quoteId: string; orderId: number; token: string }> {
  const q = await k.call('POST', '/sales/quotes', k.a.office, {
    customer: { name: 'Priya Raman', email: 'priya@example.com' },
    lines: [
      {
        product_code: 'cellular-shade',
        room: 'Nursery',
        width_in: 30.25,
        drop_in: 44,
        mount: 'inside',
        colour: 'Cloud',
        options: ['cordless-lift'],
      },
      {
        product_code: 'wood-blind',
        room: 'Office',
        width_in: 46,
        drop_in: 58.875,
        mount: 'outside',
        colour: 'Walnut',
        options: [],
      },
    ],
  });
  const token = (await k.call('POST', `/sales/quotes/${q.body.id}/send`, k.a.office)).body.token as string;
  return { quoteId: q.body.id as string, orderId: q.body.sale_order_id as number, token };
}

const auditOf = (action: string, quoteId: string) =>
  k.kit.t.db.query<{ actor_kind: string; actor_id: string; detail: unknown }>(
    `SELECT actor_kind, actor_id, detail FROM audit_log WHERE tenant_id = $1 AND action = $2 AND target_id = $3`,
    [k.a.id, action, quoteId],
  );

describe('customer portal', () => {
  it("shows the quote with its windows, totals, deposit and the tenant's branding", async () => {
    const { quoteId, token } = await sentQuote();
    const r = await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(k.a.id));
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.body.quote.lines.map((l: { room: string }) => l.room)).toEqual(['Nursery', 'Office']);
    expect(r.body.quote.state).toBe('sent');
    expect(r.body.quote.deposit).toBe(r.body.quote.amount_total / 2);
    expect(r.body.tenant.branding.company_name).toBe('Tenant acme-blinds');
    const audit = await auditOf('portal.quote.view', quoteId);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.actor_kind).toBe('portal');
    expect(JSON.stringify(audit.rows)).not.toContain(token);
  });

  it('records when the customer first opened the link, once, and not when the ERP refuses the view', async () => {
    const { quoteId, token } = await sentQuote();
    const opened = async () =>
      (
        await k.kit.t.db.query<{ first_opened_at: Date | null }>(
          'SELECT first_opened_at FROM portal_tokens WHERE quote_id = $1',
          [quoteId],
        )
      ).rows.map((r) => r.first_opened_at);
    expect(await opened()).toEqual([null]);
    // Another tenant's host: not found, nothing recorded.
    expect((await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(k.b.id))).status).toBe(404);
    expect(await opened()).toEqual([null]);
    // The ERP refuses the read: the view fails and the database is unchanged (issue 23).
    const down = vi.spyOn(k.a.erp.erp, 'read').mockRejectedValue(new Error('ERP down'));
    const refused = await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(k.a.id));
    down.mockRestore();
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(await opened()).toEqual([null]);
    expect((await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(k.a.id))).status).toBe(200);
    const [first] = await opened();
    expect(first).toBeInstanceOf(Date);
    expect((await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(k.a.id))).status).toBe(200);
    expect(await opened()).toEqual([first]);
  });

  it("answers 404 PORTAL_LINK_INVALID for the token on another tenant's host, without a host, or unknown", async () => {
    const { orderId, token } = await sentQuote();
    const other = await k.call('GET', `/portal/quotes/${token}`, undefined, undefined, onHost(k.b.id));
    const none = await k.call('GET', `/portal/quotes/${token}`, undefined);
    const unknown = await k.call('GET', `/portal/quotes/${'x'.repeat(43)}`, undefined, undefined, onHost(k.a.id));
    const odd = await k.call('GET', `/portal/quotes/${'y'.repeat(90)}`, undefined, undefined, onHost(k.a.id));
    for (const r of [other, none, unknown, odd]) {
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('PORTAL_LINK_INVALID');
      expect(r.body.detail).toBe(other.body.detail);
    }
    const accept = await k.call(
      'POST',
      `/portal/quotes/${token}/accept`,
      undefined,
      { name: 'X', signature_png_base64: png() },
      onHost(k.b.id),
    );
    expect(accept.body.code).toBe('PORTAL_LINK_INVALID');
    expect((await k.a.erp.erp.read('sale.order', [orderId], ['state']))[0]!.state).toBe('sent');
  });

  it('passes a change request to the office as a note on the quote in the ERP, once', async () => {
    const { orderId, token } = await sentQuote();
    const note = { note: 'Can the office one be <b>cordless</b>?' };
    const path = `/portal/quotes/${token}/request-changes`;
    expect((await k.call('POST', path, undefined, note, onHost(k.a.id))).status).toBe(202);
    // The same note again (a retry after a lost answer, a double click) is not posted twice.
    expect((await k.call('POST', path, undefined, note, onHost(k.a.id))).status).toBe(202);
    const notes = await k.a.erp.erp.searchRead(
      'mail.message',
      [
        ['model', '=', 'sale.order'],
        ['res_id', '=', orderId],
      ],
      { fields: ['body'] },
    );
    const bodies = notes.map((n) => String(n.body)).filter((b) => b.includes('cordless'));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain('Can the office one be &lt;b&gt;cordless&lt;/b&gt;?');
  });

  it('refuses a signature that is not a PNG, and confirms nothing', async () => {
    const { orderId, token } = await sentQuote();
    const r = await k.call(
      'POST',
      `/portal/quotes/${token}/accept`,
      undefined,
      {
        name: 'Priya Raman',
        signature_png_base64: Buffer.from('GIF89a not a png at all, really not').toString('base64'),
      },
      onHost(k.a.id),
    );
    expect(r.status).toBe(422);
    expect(r.body.errors).toContainEqual(expect.objectContaining({ field: 'signature_png_base64', rule: 'png' }));
    expect((await k.a.erp.erp.read('sale.order', [orderId], ['state']))[0]!.state).toBe('sent');
  });

  it('accepts with a signature: the order is confirmed in the ERP, the PNG stored, and a second accept answers the same', async () => {
    const { quoteId, orderId, token } = await sentQuote();
    const body = { name: 'Priya Raman', signature_png_base64: png() };
    const r = await k.call('POST', `/portal/quotes/${token}/accept`, undefined, body, onHost(k.a.id));
    expect(r.status).toBe(200);
    expect(r.body.state).toBe('sale');
    expect((await k.a.erp.erp.read('sale.order', [orderId], ['state']))[0]!.state).toBe('sale');
    const stored = readFileSync(join(k.objectsDir, k.a.id, 'quotes', quoteId, 'signature.png'));
    expect(stored.toString('base64')).toBe(body.signature_png_base64);
    const again = await k.call('POST', `/portal/quotes/${token}/accept`, undefined, body, onHost(k.a.id));
    expect(again.body).toEqual(r.body);
    expect((await auditOf('portal.quote.accept', quoteId)).rowCount).toBe(1);
  });
});
