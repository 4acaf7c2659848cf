import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { OfflineClickConversion } from '../offline-conversions.port.js';
import { createGoogleAdsConversionsSender, googleAdsDateTime, majorUnits } from './google-ads-conversions.client.js';
import { type RunningLocalGoogleAds, startLocalGoogleAds } from './local-google-ads.server.js';

const ACCESS = 'ya29.secret-access-token';
const DEV = 'dev-token-secret';
let ads: RunningLocalGoogleAds;

beforeAll(async () => {
  ads = await startLocalGoogleAds({ accessToken: ACCESS, developerToken: DEV, knownClickIds: ['gclid-known', 'wb-1'] });
});
afterAll(async () => ads.close());
beforeEach(() => {
  ads.uploads.length = 0;
});

const sender = (over: { accessToken?: string; developerToken?: string } = {}) =>
  createGoogleAdsConversionsSender({
    apiUrl: ads.url,
    customerId: '1234567890',
    loginCustomerId: '9999999999',
    developerToken: over.developerToken ?? DEV,
    accessToken: over.accessToken ?? ACCESS,
    conversionActionId: '555',
  });

const sale = (click: OfflineClickConversion['click'], orderId: string): OfflineClickConversion => ({
  click,
  occurredAt: new Date(Date.UTC(2026, 0, 10, 12, 5, 9)),
  valueMinor: 123_450,
  currency: 'USD',
  orderId,
});

describe('Google Ads offline click conversions against the local stand-in', () => {
  it('uploads the click id, the value in major units, the action and the order id', async () => {
    const r = await sender().upload([sale({ gclid: 'gclid-known' }, 'order-won:t1:42')]);
    expect(r).toEqual({ accepted: ['order-won:t1:42'], rejected: [] });
    expect(ads.uploads).toEqual([
      {
        customerId: '1234567890',
        loginCustomerId: '9999999999',
        conversions: [
          {
            gclid: 'gclid-known',
            conversionAction: 'customers/1234567890/conversionActions/555',
            conversionDateTime: '2026-01-10 12:05:09+00:00',
            conversionValue: 1234.5,
            currencyCode: 'USD',
            orderId: 'order-won:t1:42',
          },
        ],
      },
    ]);
  });

  it('maps a partial failure (unknown gclid) to the rejected order while the others are accepted', async () => {
    const r = await sender().upload([sale({ gclid: 'nope' }, 'o-1'), sale({ wbraid: 'wb-1' }, 'o-2')]);
    expect(r.accepted).toEqual(['o-2']);
    expect(r.rejected).toEqual([{ orderId: 'o-1', code: 'UNPARSEABLE_GCLID', message: expect.any(String) as string }]);
    expect(ads.uploads).toHaveLength(1);
    expect(ads.uploads[0]?.conversions).toEqual([expect.objectContaining({ wbraid: 'wb-1', orderId: 'o-2' })]);
  });

  it('throws a non-retryable unauthorized error without the tokens when the developer token is wrong', async () => {
    const err = await sender({ developerToken: 'wrong-dev' })
      .upload([sale({ gclid: 'gclid-known' }, 'o-3')])
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'OfflineConversionsError', kind: 'unauthorized', retryable: false, status: 401 });
    expect(String((err as Error).message)).toContain('DEVELOPER_TOKEN_INVALID');
    expect(String((err as Error).message)).not.toContain(ACCESS);
    expect(ads.uploads).toHaveLength(0);
  });

  it('refuses a value that is not integer minor units before sending', async () => {
    const bad = { ...sale({ gclid: 'gclid-known' }, 'o-4'), valueMinor: 12.5 };
    await expect(sender().upload([bad])).rejects.toMatchObject({ kind: 'invalid_conversion', retryable: false });
    expect(ads.uploads).toHaveLength(0);
  });

  it('a network failure is retryable', async () => {
    const s = createGoogleAdsConversionsSender({
      apiUrl: 'http://127.0.0.1:1',
      customerId: '1',
      developerToken: DEV,
      accessToken: ACCESS,
      conversionActionId: '2',
    });
    await expect(s.upload([sale({ gclid: 'x' }, 'o-5')])).rejects.toMatchObject({ kind: 'network', retryable: true });
  });
});

describe('Google Ads formats', () => {
  it('writes date-times in UTC with the +00:00 offset Google requires', () => {
    expect(googleAdsDateTime(new Date(Date.UTC(2026, 10, 3, 4, 5, 6)))).toBe('2026-11-03 04:05:06+00:00');
  });
  it('converts minor units by the currency digits', () => {
    expect(majorUnits(1999, 'USD')).toBe(19.99);
    expect(majorUnits(1999, 'JPY')).toBe(1999);
  });
});
