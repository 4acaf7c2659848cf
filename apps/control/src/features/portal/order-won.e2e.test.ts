/**
 * End to end: a quote accepted on the portal whose lead came with a gclid reaches the (local) Google
 * Ads API exactly once through the outbox and the worker's delivery, whatever is accepted or relayed
 * again; tenant B's order without a click id sends nothing.
 */
import { TOPIC_ORDER_WON } from '@platform/contracts';
import { OutboxRelay } from '@platform/outbox';
import { type RunningLocalGoogleAds, startLocalGoogleAds } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { googleAdsSenderOf } from '../../../../worker/src/features/conversions/google-ads.config.js';
import { deliverOrderWon } from '../../../../worker/src/features/conversions/order-won-delivery.js';
import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';
import { png } from '../../testing/png.js';
import { threeWindows } from '../../testing/quote-fixtures.js';

let k: CrmSalesKit;
let ads: RunningLocalGoogleAds;
let relay: OutboxRelay;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  k = await startCrmSalesKit();
  ads = await startLocalGoogleAds({ accessToken: 'access', developerToken: 'dev', knownClickIds: ['gclid-e2e'] });
  const google = googleAdsSenderOf({
    GOOGLE_ADS_API_URL: ads.url,
    GOOGLE_ADS_CUSTOMER_ID: '1112223333',
    GOOGLE_ADS_LOGIN_CUSTOMER_ID: undefined,
    GOOGLE_ADS_DEVELOPER_TOKEN: 'dev',
    GOOGLE_ADS_ACCESS_TOKEN: 'access',
    GOOGLE_ADS_CONVERSION_ACTION_ID: '9',
  });
  // The worker's own handler for the topic (apps/worker/src/deps.ts wires the same call).
  relay = new OutboxRelay({
    db: k.kit.t.db,
    workerId: 'order-won-e2e',
    handlers: { [TOPIC_ORDER_WON]: (row) => deliverOrderWon({ google, meta: undefined }, row.payload) },
    logger: quiet,
  });
}, 120_000);
afterAll(async () => {
  await ads?.close();
  await k?.close();
});

async function acceptQuote(t: CrmSalesKit['a'], lead: Record<string, unknown>) {
  const leadId = await t.erp.erp.create('crm.lead', { name: 'Shutters – Sam', ...lead });
  const q = await k.call('POST', '/sales/quotes', t.office, { ...threeWindows, lead_id: leadId });
  const token = (await k.call('POST', `/sales/quotes/${q.body.id}/send`, t.office)).body.token as string;
  const accept = () =>
    k.call(
      'POST',
      `/portal/quotes/${token}/accept`,
      undefined,
      { name: 'Sam Lee', signature_png_base64: png() },
      { 'x-tenant-id': t.id },
    );
  expect((await accept()).status).toBe(200);
  return { orderId: q.body.sale_order_id as number, accept };
}

describe('a won order’s conversion, from the portal to Google Ads', () => {
  it('sends one upload with the gclid and the order total; accepting and relaying again sends nothing more', async () => {
    const { orderId, accept } = await acceptQuote(k.a, { x_gclid: 'gclid-e2e' });
    expect(await relay.tick()).toBe(1);
    expect((await accept()).status).toBe(200);
    expect(await relay.tick()).toBe(0);
    const [order] = await k.a.erp.erp.read('sale.order', [orderId], ['amount_total']);
    expect(ads.uploads).toHaveLength(1);
    expect(ads.uploads[0]).toMatchObject({ customerId: '1112223333' });
    expect(ads.uploads[0]!.conversions).toEqual([
      expect.objectContaining({
        gclid: 'gclid-e2e',
        conversionValue: Number(order!.amount_total),
        currencyCode: 'USD',
        orderId: `order-won:${k.a.id}:${orderId}`,
      }),
    ]);
  });

  it('tenant B’s order without a click id uploads nothing', async () => {
    await acceptQuote(k.b, {});
    expect(await relay.tick()).toBe(1);
    expect(ads.uploads).toHaveLength(1);
    const done = await k.kit.t.db.query(`SELECT status FROM outbox WHERE topic = $1 AND tenant_id = $2`, [
      TOPIC_ORDER_WON,
      k.b.id,
    ]);
    expect(done.rows).toEqual([{ status: 'done' }]);
  });
});
