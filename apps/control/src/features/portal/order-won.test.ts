/**
 * A quote accepted on the portal queues its order's conversion once: the order's total in the
 * tenant's currency and the click id its lead came with, keyed by tenant and order, in the tenant's
 * own outbox (docs/reports.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';
import { threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;

beforeAll(async () => {
  k = await startCrmSalesKit();
}, 120_000);
afterAll(async () => k?.close());

type Tenant = CrmSalesKit['a'];

async function acceptedQuote(t: Tenant, lead: Record<string, unknown>) {
  const leadId = await t.erp.erp.create('crm.lead', { name: 'Roller Shades – Dana', ...lead });
  const q = await k.call('POST', '/sales/quotes', t.office, { ...threeWindows, lead_id: leadId });
  expect(q.status).toBe(201);
  const token = (await k.call('POST', `/sales/quotes/${q.body.id}/send`, t.office)).body.token as string;
  const accept = (key: string) =>
    k.call(
      'POST',
      `/portal/quotes/${token}/accept`,
      undefined,
      { name: 'Dana Whitfield', signature_png_base64: png() },
      { 'x-tenant-id': t.id, 'idempotency-key': key },
    );
  expect((await accept('first')).status).toBe(200);
  return { orderId: q.body.sale_order_id as number, accept };
}

const wonRows = (tenantId: string) =>
  k.kit.t.db.query<{ tenant_id: string; dedupe_key: string; payload: Record<string, unknown> }>(
    `SELECT tenant_id, dedupe_key, payload FROM outbox WHERE topic = 'conversions.order_won' AND tenant_id = $1`,
    [tenantId],
  );

describe('a won order queues its conversion', () => {
  it('once, with the lead’s gclid and the order’s total in minor units, however often it is accepted', async () => {
    const { orderId, accept } = await acceptedQuote(k.a, { x_gclid: 'gclid-won-1' });
    expect((await accept('second')).status).toBe(200);
    expect((await accept('first')).status).toBe(200);
    const [order] = await k.a.erp.erp.read('sale.order', [orderId], ['amount_total']);
    const rows = (await wonRows(k.a.id)).rows.filter((r) => r.payload.saleOrderId === orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.dedupe_key).toBe(`order-won:${k.a.id}:${orderId}`);
    expect(rows[0]!.payload).toMatchObject({
      eventId: `order-won:${k.a.id}:${orderId}`,
      gclid: 'gclid-won-1',
      currency: 'USD',
      valueMinor: Math.round(Number(order!.amount_total) * 100),
    });
    expect(rows[0]!.payload.valueMinor).toBeGreaterThan(0);
  });

  it('tenant B’s order is queued under B, with B’s own click ids only', async () => {
    const { orderId } = await acceptedQuote(k.b, { x_wbraid: 'wbraid-b' });
    const rows = (await wonRows(k.b.id)).rows.filter((r) => r.payload.saleOrderId === orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({ eventId: `order-won:${k.b.id}:${orderId}`, wbraid: 'wbraid-b' });
    expect(rows[0]!.payload.gclid).toBeUndefined();
    // Each tenant's ERP numbers its own orders: the event id tells A's order 1 from B's.
    expect((await wonRows(k.a.id)).rows.some((r) => r.payload.eventId === rows[0]!.payload.eventId)).toBe(false);
  });

  it('carries the lead’s fbclid as Meta’s fbc (first seen when the lead was made) and the customer’s email', async () => {
    const { orderId } = await acceptedQuote(k.a, { x_fbclid: 'IwAR-fb-1' });
    const [order] = await k.a.erp.erp.read('sale.order', [orderId], ['opportunity_id', 'x_fbclid']);
    expect(order!.x_fbclid).toBe('IwAR-fb-1');
    const [lead] = await k.a.erp.erp.read(
      'crm.lead',
      [(order!.opportunity_id as [number, string])[0]],
      ['create_date'],
    );
    const made = new Date(`${String(lead!.create_date).replace(' ', 'T')}Z`).getTime();
    const rows = (await wonRows(k.a.id)).rows.filter((r) => r.payload.saleOrderId === orderId);
    expect(rows[0]!.payload).toMatchObject({ fbc: `fb.1.${made}.IwAR-fb-1`, email: threeWindows.customer.email });
    expect(rows[0]!.payload.gclid).toBeUndefined();
  });
});
