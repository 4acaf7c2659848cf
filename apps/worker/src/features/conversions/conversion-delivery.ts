/** Sends a queued Lead event through the conversions port; what the provider says can never succeed (stale, invalid) is dead-lettered. */
import type { ConversionPayload } from '@platform/contracts';
import { PermanentFailure } from '@platform/outbox';
import { type ConversionsSender, ProviderError } from '@platform/providers';

export async function deliverConversion(
  sender: ConversionsSender,
  p: ConversionPayload,
): Promise<{ eventsReceived: number }> {
  try {
    return await sender.send([
      {
        eventName: 'Lead',
        eventId: p.eventId,
        eventTime: p.eventTime,
        eventSourceUrl: p.eventSourceUrl,
        actionSource: 'website',
        user: p.user,
        ...(p.customData ? { customData: p.customData } : {}),
      },
    ]);
  } catch (e) {
    if (e instanceof ProviderError && !e.retryable) throw new PermanentFailure(`${e.kind}: ${e.message}`, { cause: e });
    throw e;
  }
}
