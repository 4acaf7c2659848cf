/**
 * Ordering from suppliers through the routes, against a real embedded ERP per tenant: a quote with
 * windows of two vendors' products, accepted on the portal, drafts one purchase order per vendor
 * with the exact sizes; the job run again, a confirm sent twice and a keyed receipt sent twice
 * change nothing more; receiving in part then the rest makes the sale order received, and its job's
 * customer is told once that it is ready to fit (docs/messages.md).
 */
import type { PurchaseOrderView } from '@platform/contracts/purchase-orders.js';
import { createLogger } from '@platform/http-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';
import { saleOrderReceived } from './purchase-orders-erp.js';

let k: CrmSalesKit;
let saleOrder: number;
let jobId: string;
let vendors: { mill: number; works: number };
const window = (product_code: string, room: string, width_in: number) => ({
  ...{ product_code, room, width_in, drop_in: 48.5, mount: 'inside', colour: 'White', options: [] },
});
const pos = async (state: string, token = k.a.office) =>
  (await k.call('GET', `/purchase-orders?state=${state}`, token)).body.items as PurchaseOrderView[];

beforeAll(async () => {
  k = await startCrmSalesKit();
  const add = (name: string) =>
    k.call('POST', '/supply/suppliers', k.a.owner, {
      name,
      email: `orders@${name.split(' ')[0]!.toLowerCase()}.example`,
    });
  vendors = { mill: (await add('Shade Mill')).body.id, works: (await add('Blind Works')).body.id };
  const put = (code: string, supplier_id: number, lead_days: number) =>
    k.call('PUT', `/supply/products/${code}`, k.a.owner, {
      ...{ supplier_id, supplier_code: `V-${code}`, cost_minor: 8050, lead_days },
    });
  expect((await put('roller-shade', vendors.mill, 10)).status).toBe(200);
  expect((await put('wood-blind', vendors.works, 21)).status).toBe(200);
  const q = await k.call('POST', '/sales/quotes', k.a.office, {
    customer: { name: 'Priya Raman', email: 'priya@example.com' },
    lines: [
      window('roller-shade', 'Office', 46.125),
      window('wood-blind', 'Den', 27.375),
      window('roller-shade', 'Hall', 30),
    ],
  });
  const sent = await k.call('POST', `/sales/quotes/${q.body.id}/send`, k.a.office);
  const accepted = await k.call(
    'POST',
    `/portal/quotes/${sent.body.token}/accept`,
    undefined,
    { name: 'Priya', signature_png_base64: png() },
    { 'x-tenant-id': k.a.id },
  );
  expect(accepted.status).toBe(200);
  saleOrder = (await k.call('GET', `/sales/quotes/${q.body.id}`, k.a.office)).body.sale_order_id;
  const [so] = await k.a.erp.erp.read('sale.order', [saleOrder], ['partner_id']);
  const job = await k.call('POST', '/jobs', k.a.office, {
    partner_id: (so!.partner_id as [number, string])[0],
    address: { street: '1 Main St', city: 'Denver', zip: '80211' },
    sale_order_id: saleOrder,
  });
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  jobId = job.body.id;
  const {
    time_zone: _z,
    placeholders: _p,
    kinds,
    ...settings
  } = (await k.call('GET', `/api/tenants/${k.a.id}/messages`, k.a.owner)).body;
  const ready = kinds.find((x: { kind: string }) => x.kind === 'ready_to_fit');
  const on = await k.call('PUT', `/api/tenants/${k.a.id}/messages`, k.a.owner, {
    ...settings,
    kinds: [{ kind: 'ready_to_fit', enabled: true, sms: ready.sms, subject: ready.subject, email: ready.email }],
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
}, 120_000);

const toldReady = async () =>
  (
    await k.kit.t.db.query(`SELECT to_email FROM message_schedule WHERE tenant_id = $1 AND kind = 'ready_to_fit'`, [
      k.a.id,
    ])
  ).rows;

const readyToFit = async () =>
  (
    (await k.call('GET', '/jobs?page_size=100', k.a.office)).body.items as {
      sale_order_id: number;
      ready_to_fit?: boolean;
    }[]
  )
    .filter((j) => j.sale_order_id === saleOrder)
    .map((j) => j.ready_to_fit);
afterAll(async () => k?.close());

const relayPass = () => k.kit.deps.supply.draftJob.relay(createLogger('silent')).tick();

describe('supplier orders from an accepted quote', () => {
  it('keeps each product vendor, vendor code, cost and lead time', async () => {
    const r = await k.call('GET', '/supply/products/wood-blind', k.a.office);
    expect(r.body).toMatchObject({
      supplier: { id: vendors.works, name: 'Blind Works' },
      supplier_code: 'V-wood-blind',
      cost_minor: 8050,
      lead_days: 21,
    });
  });

  it('drafts one purchase order per vendor with a line per window at its exact size', async () => {
    expect(await relayPass()).toBe(1);
    const open = await pos('open');
    expect(open.map((p) => [p.supplier?.name, p.state, p.lines.length])).toEqual([
      ['Shade Mill', 'draft', 2],
      ['Blind Works', 'draft', 1],
    ]);
    expect(open[0]!.lines[0]!.description).toContain('46 1/8" W × 48 1/2" H, inside mount, White');
    expect(open[1]!.lines[0]!.description).toContain('27 3/8" W × 48 1/2" H');
  });

  it('run again (a retried job), finds its orders and drafts none', async () => {
    const r = await k.kit.deps.supply.draftJob.run(k.a.id, saleOrder);
    expect(r.orders.map((o) => o.created)).toEqual([false, false]);
    expect(await pos('open')).toHaveLength(2);
  });

  it('confirms an order and emails it to its supplier once; confirming it again answers the same order', async () => {
    const [po] = await pos('open');
    const calls = await Promise.all(
      Array.from({ length: 3 }, () => k.call('POST', `/purchase-orders/${po!.id}/confirm`, k.a.office)),
    );
    const again = await k.call('POST', `/purchase-orders/${po!.id}/confirm`, k.a.office);
    for (const r of [...calls, again])
      expect([r.status, r.body.state, r.body.emailed_to], JSON.stringify(r.body)).toEqual([
        200,
        'purchase',
        'orders@shade.example',
      ]);
    expect(await pos('open')).toHaveLength(2);
    const mails = await k.kit.t.db.query(
      `SELECT to_address FROM email_messages WHERE tenant_id = $1 AND template = 'purchase_order'`,
      [k.a.id],
    );
    expect(mails.rows).toEqual([{ to_address: 'orders@shade.example' }]);
    const queued = await k.kit.t.db.query<{ payload: unknown }>(
      `SELECT payload FROM outbox WHERE topic = 'email.transactional' AND tenant_id = $1`,
      [k.a.id],
    );
    const mail = queued.rows.map((r) => JSON.stringify(r.payload)).find((t) => t.includes('purchase_order'))!;
    expect(mail).toContain(po!.name);
    expect(mail).toContain('inside mount, White');
    expect(mail).toContain('application/pdf');
  });

  it('refuses to receive a draft order, naming its state', async () => {
    const draft = (await pos('open')).find((p) => p.state === 'draft')!;
    const r = await k.call('POST', `/purchase-orders/${draft.id}/receive`, k.a.office, {
      lines: [{ line_id: draft.lines[0]!.id, qty: 1 }],
    });
    expect([r.status, r.body.code, r.body.state]).toEqual([409, 'PURCHASE_ORDER_STATE_CONFLICT', 'draft']);
  });

  it('records one receipt of concurrent ones under one key; part then the rest makes the sale order received', async () => {
    const open = await pos('open');
    const po = open.find((p) => p.state === 'purchase')!;
    const other = open.find((p) => p.state === 'draft')!;
    const body = { lines: [{ line_id: po.lines[0]!.id, qty: 1 }] };
    const key = { 'idempotency-key': 'receipt-1' };
    const same = await Promise.all(
      Array.from({ length: 6 }, () => k.call('POST', `/purchase-orders/${po.id}/receive`, k.a.office, body, key)),
    );
    expect(same.map((r) => r.status)).toEqual(Array(6).fill(200));
    for (const r of same) expect(r.body).toEqual(same[0]!.body);
    expect(same[0]!.body.lines.map((l: { qty_received: number }) => l.qty_received)).toEqual([1, 0]);
    expect((await pos('open')).find((p) => p.id === po.id)!.lines[0]!.qty_received).toBe(1);
    const name = po.origin!;
    expect(await saleOrderReceived(k.a.erp.erp, name)).toBe(false);
    expect(await readyToFit()).toEqual([false]);
    expect((await k.call('GET', `/jobs/${jobId}`, k.a.office)).body.ready_to_fit).toBe(false);
    expect(await toldReady()).toEqual([]);
    // Two screens receive the same last window at once (their own keys): one receipt, the other refused.
    const both = await Promise.all(
      ['screen-1', 'screen-2'].map((screen) =>
        k.call(
          'POST',
          `/purchase-orders/${po.id}/receive`,
          k.a.office,
          { lines: [{ line_id: po.lines[1]!.id, qty: 1 }] },
          { 'idempotency-key': screen },
        ),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(both.find((r) => r.status === 200)!.body.status).toBe('received');
    expect(both.find((r) => r.status === 422)!.body.code).toBe('RECEIVE_QTY_INVALID');
    await k.call('POST', `/purchase-orders/${other.id}/confirm`, k.a.office);
    await k.call('POST', `/purchase-orders/${other.id}/receive`, k.a.office, {
      lines: [{ line_id: other.lines[0]!.id, qty: 1 }],
    });
    expect((await pos('received')).map((p) => p.id).sort()).toEqual([po.id, other.id].sort());
    expect(await saleOrderReceived(k.a.erp.erp, name)).toBe(true);
    expect(await readyToFit()).toEqual([true]);
    expect(await toldReady()).toEqual([{ to_email: 'priya@example.com' }]);
    // The install job's own page shows it too.
    expect((await k.call('GET', `/jobs/${jobId}`, k.a.office)).body.ready_to_fit).toBe(true);
  });

  it('refuses more than was ordered, naming the line', async () => {
    const [po] = await pos('received');
    const r = await k.call('POST', `/purchase-orders/${po!.id}/receive`, k.a.office, {
      lines: [{ line_id: po!.lines[0]!.id, qty: 1 }],
    });
    expect([r.status, r.body.code]).toEqual([422, 'RECEIVE_QTY_INVALID']);
  });

  it('another company sees none of these orders and cannot confirm or receive them', async () => {
    expect(await pos('received', k.b.office)).toEqual([]);
    const [po] = await pos('received');
    expect((await k.call('POST', `/purchase-orders/${po!.id}/confirm`, k.b.office)).status).toBe(404);
    const r = await k.call('POST', `/purchase-orders/${po!.id}/receive`, k.b.office, {
      lines: [{ line_id: po!.lines[0]!.id, qty: 1 }],
    });
    expect(r.status).toBe(404);
  });
});
