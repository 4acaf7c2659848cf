/**
 * A won order delivered to Meta's Conversions API as a `Purchase`, against the local CAPI receiver
 * (which checks what Meta documents: hashed email and phone, a valid action source, the event's age):
 * value and currency from minor units, the fbc, an event id derived from the order so a redelivery
 * is deduplicated, Google and Meta each sent even when the other fails, and nothing without settings.
 */
import { createHash } from 'node:crypto';

import type { OrderWonPayload } from '@platform/contracts';
import { PermanentFailure } from '@platform/outbox';
import { createMetaCapiSender, OfflineConversionsError, type OfflineConversionsSender } from '@platform/providers';
import { type RunningLocalCapiReceiver, startLocalCapiReceiver } from '@platform/providers/local';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { deliverOrderWon } from './order-won-delivery.js';

let capi: RunningLocalCapiReceiver;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const meta = (accessToken = 'meta-token-123') =>
  createMetaCapiSender({ graphUrl: capi.url, pixelId: '1234567890', accessToken, defaultCountryCode: '1' });

const won = (over: Partial<OrderWonPayload> = {}): OrderWonPayload => ({
  eventId: 'order-won:tenant-a:42',
  saleOrderId: 42,
  wonAt: new Date(Date.now() - 3_600_000).toISOString(),
  valueMinor: 184_250,
  currency: 'USD',
  fbc: 'fb.1.1767000000000.IwAR-click',
  email: ' Dana@Example.com ',
  phone: '(720) 555-0142',
  ...over,
});

beforeAll(async () => {
  capi = await startLocalCapiReceiver({ accessToken: 'meta-token-123' });
});
afterAll(async () => capi.close());
beforeEach(() => capi.receiver.clear());

describe('a won order delivered to Meta as a Purchase', () => {
  it('sends value and currency from minor units, the fbc, hashed email and phone, and the order’s event id', async () => {
    const order = won(); // once: its wonAt is "an hour ago" from when it is made
    expect(await deliverOrderWon({ google: undefined, meta: meta() }, order)).toEqual({
      google: 'not_configured',
      meta: 'sent',
    });
    expect(capi.receiver.events).toEqual([
      {
        event_name: 'Purchase',
        event_id: 'order-won:tenant-a:42',
        event_time: Math.floor(Date.parse(order.wonAt) / 1000),
        action_source: 'system_generated',
        user_data: { em: [sha('dana@example.com')], ph: [sha('17205550142')], fbc: 'fb.1.1767000000000.IwAR-click' },
        custom_data: { value: 1842.5, currency: 'USD', order_id: '42' },
      },
    ]);
  });

  it('takes the currency’s own minor unit (yen have none) and sends what the order has', async () => {
    await deliverOrderWon(
      { google: undefined, meta: meta() },
      won({ valueMinor: 98_000, currency: 'JPY', fbc: undefined, phone: undefined }),
    );
    const [e] = capi.receiver.events;
    expect(e).toMatchObject({ custom_data: { value: 98_000, currency: 'JPY' } });
    expect(e!.user_data).toEqual({ em: [sha('dana@example.com')] });
  });

  it('sends the same event id again on a redelivery after Google failed, so Meta counts it once', async () => {
    let calls = 0;
    const flaky: OfflineConversionsSender = {
      upload: async () => {
        calls += 1;
        if (calls === 1) throw new OfflineConversionsError('network', 'socket hang up', { retryable: true });
        return { accepted: ['order-won:tenant-a:42'], rejected: [] };
      },
    };
    const to = { google: flaky, meta: meta() };
    const p = won({ gclid: 'gclid-a' });
    await expect(deliverOrderWon(to, p)).rejects.toBeInstanceOf(OfflineConversionsError);
    expect(await deliverOrderWon(to, p)).toEqual({ google: 'sent', meta: 'sent' });
    expect(capi.receiver.events.map((e) => [e.event_name, e.event_id])).toEqual([
      ['Purchase', 'order-won:tenant-a:42'],
      ['Purchase', 'order-won:tenant-a:42'],
    ]);
  });

  it('dead-letters a Purchase Meta refuses for good (a wrong token), and sends nothing without settings', async () => {
    await expect(deliverOrderWon({ google: undefined, meta: meta('wrong-token-xyz') }, won())).rejects.toBeInstanceOf(
      PermanentFailure,
    );
    expect(await deliverOrderWon({ google: undefined, meta: undefined }, won())).toEqual({
      google: 'not_configured',
      meta: 'not_configured',
    });
    expect(capi.receiver.events).toHaveLength(0);
  });
});
