/**
 * Sends a won order's conversion (queued once per order by the control plane) to each ad platform the
 * platform has settings for: Google Ads when the order carries a Google click id, and Meta's
 * Conversions API as a `Purchase` (value and currency, the fbclid as `fbc`, the customer's email and
 * phone hashed by the adapter). Both key the conversion by our event id (Google's order id, Meta's
 * event_id), so a redelivery of the row, after either platform failed, is counted once by each.
 * A conversion a platform refuses for good is not retried: the same row would be refused again.
 */
import type { OrderWonPayload } from '@platform/contracts';
import { PermanentFailure } from '@platform/outbox';
import {
  type ConversionsSender,
  type OfflineClickConversion,
  type OfflineConversionsSender,
  ProviderError,
} from '@platform/providers';

export type GoogleOutcome =
  | { google: 'sent' | 'already_sent' }
  | { google: 'rejected'; code: string }
  | { google: 'not_configured' | 'no_click_id' };
export type OrderWonOutcome = GoogleOutcome & { meta: 'sent' | 'not_configured' };

export interface OrderWonSenders {
  google: OfflineConversionsSender | undefined;
  /** Only with META_PIXEL_ID and META_ACCESS_TOKEN set: the log driver stands in for leads, not here. */
  meta: ConversionsSender | undefined;
}

const ALREADY_EXISTS = 'CLICK_CONVERSION_ALREADY_EXISTS';

function clickOf(p: OrderWonPayload): OfflineClickConversion['click'] | undefined {
  if (p.gclid) return { gclid: p.gclid };
  if (p.gbraid) return { gbraid: p.gbraid };
  if (p.wbraid) return { wbraid: p.wbraid };
  return undefined;
}

async function toGoogle(google: OfflineConversionsSender | undefined, p: OrderWonPayload): Promise<GoogleOutcome> {
  if (!google) return { google: 'not_configured' };
  const click = clickOf(p);
  if (!click) return { google: 'no_click_id' };
  const r = await google.upload([
    { click, occurredAt: new Date(p.wonAt), valueMinor: p.valueMinor, currency: p.currency, orderId: p.eventId },
  ]);
  const refused = r.rejected[0];
  if (!refused) return { google: 'sent' };
  // A redelivery after a lost answer: Google already counts this click at this time.
  if (refused.code === ALREADY_EXISTS) return { google: 'already_sent' };
  return { google: 'rejected', code: refused.code };
}

/** Integer minor units as the decimal Meta's `value` takes (JPY has none, BHD three). */
const major = (minor: number, currency: string) => {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return minor / 10 ** digits;
};

async function toMeta(meta: ConversionsSender | undefined, p: OrderWonPayload): Promise<'sent' | 'not_configured'> {
  if (!meta) return 'not_configured';
  await meta.send([
    {
      eventName: 'Purchase',
      eventId: p.eventId,
      eventTime: Math.floor(Date.parse(p.wonAt) / 1000),
      // The order is won in the CRM (an accepted quote), after the visit: no page, no browser.
      actionSource: 'system_generated',
      user: {
        ...(p.email ? { email: p.email } : {}),
        ...(p.phone ? { phone: p.phone } : {}),
        ...(p.fbc ? { fbc: p.fbc } : {}),
      },
      customData: { value: major(p.valueMinor, p.currency), currency: p.currency, order_id: String(p.saleOrderId) },
    },
  ]);
  return 'sent';
}

export async function deliverOrderWon(to: OrderWonSenders, p: OrderWonPayload): Promise<OrderWonOutcome> {
  // Each platform on its own: one failing does not keep the other from being sent this time.
  const [google, meta] = await Promise.allSettled([toGoogle(to.google, p), toMeta(to.meta, p)]);
  const failures = [google, meta].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  // A transient failure retries the row (the platform that succeeded dedupes the resend by event id).
  const transient = failures.find((e) => !(e instanceof ProviderError) || e.retryable);
  if (transient) throw transient;
  const permanent = failures[0];
  if (permanent instanceof ProviderError)
    throw new PermanentFailure(`${permanent.kind}: ${permanent.message}`, { cause: permanent });
  return {
    ...(google as PromiseFulfilledResult<GoogleOutcome>).value,
    meta: (meta as PromiseFulfilledResult<'sent' | 'not_configured'>).value,
  };
}
