/**
 * Sends a won order's conversion (queued once per order by the control plane) to Google Ads when the
 * platform has Google Ads settings and the order carries a click id. The order id Google keeps is our
 * event id, so a redelivery of the same row is not counted twice. A row Google refuses (an unknown
 * click id) is not retried: the same row would be refused again.
 */
import type { OrderWonPayload } from '@platform/contracts';
import { PermanentFailure } from '@platform/outbox';
import { type OfflineClickConversion, type OfflineConversionsSender, ProviderError } from '@platform/providers';

export type OrderWonOutcome =
  | { google: 'sent' | 'already_sent' }
  | { google: 'rejected'; code: string }
  | { google: 'not_configured' | 'no_click_id' };

const ALREADY_EXISTS = 'CLICK_CONVERSION_ALREADY_EXISTS';

function clickOf(p: OrderWonPayload): OfflineClickConversion['click'] | undefined {
  if (p.gclid) return { gclid: p.gclid };
  if (p.gbraid) return { gbraid: p.gbraid };
  if (p.wbraid) return { wbraid: p.wbraid };
  return undefined;
}

export async function deliverOrderWon(
  google: OfflineConversionsSender | undefined,
  p: OrderWonPayload,
): Promise<OrderWonOutcome> {
  if (!google) return { google: 'not_configured' };
  const click = clickOf(p);
  if (!click) return { google: 'no_click_id' };
  try {
    const r = await google.upload([
      { click, occurredAt: new Date(p.wonAt), valueMinor: p.valueMinor, currency: p.currency, orderId: p.eventId },
    ]);
    const refused = r.rejected[0];
    if (!refused) return { google: 'sent' };
    // A redelivery after a lost answer: Google already counts this click at this time.
    if (refused.code === ALREADY_EXISTS) return { google: 'already_sent' };
    return { google: 'rejected', code: refused.code };
  } catch (e) {
    if (e instanceof ProviderError && !e.retryable) throw new PermanentFailure(`${e.kind}: ${e.message}`, { cause: e });
    throw e;
  }
}
