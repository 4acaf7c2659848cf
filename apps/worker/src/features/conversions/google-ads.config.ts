/**
 * The platform's Google Ads account for won orders' conversions (docs/providers.md): all of
 * GOOGLE_ADS_CUSTOMER_ID, _DEVELOPER_TOKEN, _ACCESS_TOKEN and _CONVERSION_ACTION_ID, or none (off).
 * Per-tenant accounts are not here yet: every tenant's orders go to this one account.
 */
import { createGoogleAdsConversionsSender, type OfflineConversionsSender } from '@platform/providers';
import { z } from 'zod';

const digits = (what: string) =>
  z
    .string()
    .regex(/^\d{1,20}$/, `must be the ${what}, digits only`)
    .optional();

export const googleAdsEnvShape = {
  GOOGLE_ADS_API_URL: z.url().default('https://googleads.googleapis.com'),
  GOOGLE_ADS_CUSTOMER_ID: digits('advertiser account id'),
  GOOGLE_ADS_LOGIN_CUSTOMER_ID: digits('manager account id'),
  GOOGLE_ADS_DEVELOPER_TOKEN: z.string().min(1).optional(),
  GOOGLE_ADS_ACCESS_TOKEN: z.string().min(1).optional(),
  GOOGLE_ADS_CONVERSION_ACTION_ID: digits('conversion action id'),
};

type GoogleAdsEnv = z.infer<z.ZodObject<typeof googleAdsEnvShape>>;

const REQUIRED = [
  'GOOGLE_ADS_CUSTOMER_ID',
  'GOOGLE_ADS_DEVELOPER_TOKEN',
  'GOOGLE_ADS_ACCESS_TOKEN',
  'GOOGLE_ADS_CONVERSION_ACTION_ID',
] as const;

export function refineGoogleAds(c: GoogleAdsEnv, ctx: z.RefinementCtx): void {
  const set = REQUIRED.filter((k) => Boolean(c[k]));
  if (set.length > 0 && set.length < REQUIRED.length)
    ctx.addIssue({
      code: 'custom',
      path: [REQUIRED.find((k) => !c[k])!],
      message: `${REQUIRED.join(', ')} are set together or not at all`,
    });
}

/** The Google Ads sender, or undefined when the platform has no Google Ads settings. */
export function googleAdsSenderOf(c: GoogleAdsEnv): OfflineConversionsSender | undefined {
  if (!c.GOOGLE_ADS_CUSTOMER_ID || !c.GOOGLE_ADS_DEVELOPER_TOKEN || !c.GOOGLE_ADS_ACCESS_TOKEN) return undefined;
  if (!c.GOOGLE_ADS_CONVERSION_ACTION_ID) return undefined;
  return createGoogleAdsConversionsSender({
    apiUrl: c.GOOGLE_ADS_API_URL,
    customerId: c.GOOGLE_ADS_CUSTOMER_ID,
    ...(c.GOOGLE_ADS_LOGIN_CUSTOMER_ID ? { loginCustomerId: c.GOOGLE_ADS_LOGIN_CUSTOMER_ID } : {}),
    developerToken: c.GOOGLE_ADS_DEVELOPER_TOKEN,
    accessToken: c.GOOGLE_ADS_ACCESS_TOKEN,
    conversionActionId: c.GOOGLE_ADS_CONVERSION_ACTION_ID,
  });
}
