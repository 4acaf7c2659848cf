/** A won order's conversion delivered to the local Google Ads stand-in through the worker's own settings. */
import type { OrderWonPayload } from '@platform/contracts';
import { PermanentFailure } from '@platform/outbox';
import type { OfflineConversionsSender } from '@platform/providers';
import { type RunningLocalGoogleAds, startLocalGoogleAds } from '@platform/providers/local';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { googleAdsSenderOf } from './google-ads.config.js';
import { deliverOrderWon, type OrderWonSenders } from './order-won-delivery.js';

let ads: RunningLocalGoogleAds;
const env = (over: Record<string, string> = {}) => ({
  GOOGLE_ADS_API_URL: ads.url,
  GOOGLE_ADS_CUSTOMER_ID: '1234567890',
  GOOGLE_ADS_LOGIN_CUSTOMER_ID: undefined,
  GOOGLE_ADS_DEVELOPER_TOKEN: 'dev-token',
  GOOGLE_ADS_ACCESS_TOKEN: 'access-token',
  GOOGLE_ADS_CONVERSION_ACTION_ID: '77',
  ...over,
});

/** Google alone: no Meta settings. */
const g = (google: OfflineConversionsSender | undefined): OrderWonSenders => ({ google, meta: undefined });

const won = (over: Partial<OrderWonPayload> = {}): OrderWonPayload => ({
  eventId: 'order-won:tenant-a:42',
  saleOrderId: 42,
  wonAt: '2026-01-10T12:00:00.000Z',
  valueMinor: 184_250,
  currency: 'USD',
  gclid: 'gclid-a',
  ...over,
});

beforeAll(async () => {
  ads = await startLocalGoogleAds({
    accessToken: 'access-token',
    developerToken: 'dev-token',
    knownClickIds: ['gclid-a', 'gbraid-a'],
  });
});
afterAll(async () => ads.close());
beforeEach(() => {
  ads.uploads.length = 0;
});

describe('a won order delivered to Google Ads', () => {
  it('uploads the gclid, the order total and the event id as the order id', async () => {
    expect(await deliverOrderWon(g(googleAdsSenderOf(env())), won())).toEqual({
      google: 'sent',
      meta: 'not_configured',
    });
    expect(ads.uploads).toHaveLength(1);
    expect(ads.uploads[0]!.conversions).toEqual([
      expect.objectContaining({
        gclid: 'gclid-a',
        conversionValue: 1842.5,
        currencyCode: 'USD',
        orderId: 'order-won:tenant-a:42',
        conversionAction: 'customers/1234567890/conversionActions/77',
        conversionDateTime: '2026-01-10 12:00:00+00:00',
      }),
    ]);
  });

  it('a redelivered row is counted once: Google refuses the same click and time again', async () => {
    const sender = googleAdsSenderOf(env());
    const p = won({ eventId: 'order-won:tenant-a:43', saleOrderId: 43, gbraid: 'gbraid-a', gclid: undefined });
    expect(await deliverOrderWon(g(sender), p)).toEqual({ google: 'sent', meta: 'not_configured' });
    expect(await deliverOrderWon(g(sender), p)).toEqual({ google: 'already_sent', meta: 'not_configured' });
    expect(ads.uploads).toHaveLength(1);
    expect(ads.uploads[0]!.conversions[0]).toMatchObject({ gbraid: 'gbraid-a', orderId: 'order-won:tenant-a:43' });
  });

  it('sends nothing without Google Ads settings or without a click id', async () => {
    expect(await deliverOrderWon(g(googleAdsSenderOf({ ...env(), GOOGLE_ADS_CUSTOMER_ID: undefined })), won())).toEqual(
      {
        google: 'not_configured',
        meta: 'not_configured',
      },
    );
    expect(await deliverOrderWon(g(googleAdsSenderOf(env())), won({ gclid: undefined }))).toEqual({
      google: 'no_click_id',
      meta: 'not_configured',
    });
    expect(ads.uploads).toHaveLength(0);
  });

  it('reports a click id Google does not know as rejected, without retrying', async () => {
    expect(await deliverOrderWon(g(googleAdsSenderOf(env())), won({ gclid: 'gclid-unknown' }))).toEqual({
      google: 'rejected',
      code: 'UNPARSEABLE_GCLID',
      meta: 'not_configured',
    });
    expect(ads.uploads).toHaveLength(0);
  });

  it('dead-letters refused credentials (PermanentFailure), never sending', async () => {
    const bad = googleAdsSenderOf(env({ GOOGLE_ADS_DEVELOPER_TOKEN: 'other-token' }));
    await expect(deliverOrderWon(g(bad), won())).rejects.toBeInstanceOf(PermanentFailure);
    expect(ads.uploads).toHaveLength(0);
  });
});
