/** Quotes when the ERP misbehaves: lost replies, racing retries, a refusal. One sale order, or none. */
import { odooCall, registryWithout, startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit, throughDroppingProxy } from '../../testing/crm-sales-kit.js';
import { ordersWithOrigin, threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
let lacking: TestErp;
beforeAll(async () => {
  k = await startCrmSalesKit();
  // An ERP whose sale orders have no `origin` field: it refuses the order the platform makes.
  lacking = await startTestErp({
    db: k.kit.t.db,
    dbName: 'tenant_lacking',
    registry: registryWithout('sale.order', ['origin']),
  });
}, 120_000);
afterAll(async () => {
  await lacking?.stop();
  await k?.close();
});

describe('quotes when the ERP fails', () => {
  it('makes one sale order when two retries with the same key race', async () => {
    const h = { 'idempotency-key': 'quote-race-1' };
    const answers = await Promise.all([
      k.call('POST', '/sales/quotes', k.a.office, threeWindows, h),
      k.call('POST', '/sales/quotes', k.a.office, threeWindows, h),
    ]);
    for (const a of answers) expect([201, 409]).toContain(a.status);
    const made = answers.find((a) => a.status === 201)!;
    expect(await ordersWithOrigin(k, made.body.id)).toHaveLength(1);
    const again = await k.call('POST', '/sales/quotes', k.a.office, threeWindows, h);
    expect(again.body.sale_order_id).toBe(made.body.sale_order_id);
  });

  it('makes one sale order when the ERP drops the reply to the create and the client retries', async () => {
    await throughDroppingProxy(k, k.a, async (proxy) => {
      // The create commits but its reply is lost, and so is the look-up right after it: the caller sees a failure.
      let created = false;
      proxy.dropNext((r) => {
        if (odooCall('sale.order', 'create')(r)) return (created = true);
        return created && odooCall('sale.order', 'search')(r);
      }, 2);
      const h = { 'idempotency-key': 'quote-dropped-1' };
      const first = await k.call('POST', '/sales/quotes', k.a.office, threeWindows, h);
      expect(first.status).toBe(503);
      expect(proxy.dropped).toHaveLength(2);
      const retry = await k.call('POST', '/sales/quotes', k.a.office, threeWindows, h);
      expect(retry.status).toBe(201);
      expect(await ordersWithOrigin(k, retry.body.id)).toEqual([retry.body.sale_order_id]);
    });
  });

  it('leaves no quote behind when the ERP refuses the order', async () => {
    k.route(k.b.id, lacking.erp);
    try {
      const before = (await k.call('GET', '/sales/quotes', k.b.office)).body.total;
      const r = await k.call('POST', '/sales/quotes', k.b.office, threeWindows);
      expect(r.body.code).toBe('ERP_REJECTED');
      expect((await k.call('GET', '/sales/quotes', k.b.office)).body.total).toBe(before);
      const audit = await k.kit.t.db.query(
        `SELECT 1 FROM audit_log WHERE tenant_id = $1 AND action = 'sales.quote.create'`,
        [k.b.id],
      );
      expect(audit.rowCount).toBe(0);
    } finally {
      k.route(k.b.id, k.b.erp.erp);
    }
  });
});
