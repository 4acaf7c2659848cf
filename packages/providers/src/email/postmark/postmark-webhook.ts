/**
 * Postmark's bounce and spam-complaint webhooks. Postmark does not sign them: the receiver is
 * protected by HTTP basic auth in the webhook URL and/or a custom header (checked by the caller).
 * A hard bounce (`HardBounce`, TypeCode 1) or any record with `Inactive: true` means Postmark stopped
 * sending to the address; `SpamComplaint` (TypeCode 512) can never be reactivated.
 */
import type { EmailFeedbackEvent } from '../email.port.js';

export function parsePostmarkWebhook(body: unknown): EmailFeedbackEvent | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.Email !== 'string' || (b.ID === undefined && b.MessageID === undefined)) return undefined;
  const meta = b.Metadata && typeof b.Metadata === 'object' ? (b.Metadata as Record<string, unknown>) : {};
  const complaint = b.RecordType === 'SpamComplaint' || b.Type === 'SpamComplaint' || b.TypeCode === 512;
  const hard = b.Type === 'HardBounce' || b.TypeCode === 1;
  const kind = complaint ? 'complaint' : b.RecordType === 'Bounce' ? (hard ? 'hard_bounce' : 'soft_bounce') : 'other';
  return {
    kind,
    email: b.Email,
    provider: 'postmark',
    eventId: String(b.ID ?? b.MessageID),
    providerMessageId: typeof b.MessageID === 'string' ? b.MessageID : undefined,
    tenantHint: typeof meta.tenant_id === 'string' ? meta.tenant_id : undefined,
    inactive: b.Inactive === true,
    detail: {
      type: b.Type,
      typeCode: b.TypeCode,
      description: b.Description,
      bouncedAt: b.BouncedAt,
      canActivate: b.CanActivate,
      stream: b.MessageStream,
    },
  };
}
