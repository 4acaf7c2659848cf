/**
 * The SES notification inside a verified SNS `Message` (docs: SES notification contents). One
 * notification may cover several recipients; unknown fields and types are tolerated. Permanent
 * bounces are hard bounces, Transient/Undetermined are soft; complaints are complaints.
 */
import type { EmailFeedbackEvent } from '../email.port.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function parseSesNotification(messageText: string, snsMessageId: string): EmailFeedbackEvent[] {
  let n: Obj;
  try {
    n = obj(JSON.parse(messageText));
  } catch {
    return [];
  }
  const type = String(n.notificationType ?? n.eventType ?? '');
  const mail = obj(n.mail);
  const tags = obj(mail.tags);
  const tenantTag = arr(tags.tenant_id)[0];
  const base = {
    provider: 'ses',
    providerMessageId: typeof mail.messageId === 'string' ? mail.messageId : undefined,
    tenantHint: typeof tenantTag === 'string' ? tenantTag : undefined,
    inactive: false,
  };
  if (type === 'Bounce') {
    const b = obj(n.bounce);
    const hard = b.bounceType === 'Permanent';
    return arr(b.bouncedRecipients).flatMap((r, i) => {
      const email = obj(r).emailAddress;
      if (typeof email !== 'string') return [];
      return [
        {
          ...base,
          kind: hard ? 'hard_bounce' : 'soft_bounce',
          email,
          eventId: `${String(b.feedbackId ?? snsMessageId)}#${i}`,
          detail: {
            bounceType: b.bounceType,
            bounceSubType: b.bounceSubType,
            diagnostic: obj(r).diagnosticCode,
            at: b.timestamp,
          },
        } as EmailFeedbackEvent,
      ];
    });
  }
  if (type === 'Complaint') {
    const c = obj(n.complaint);
    return arr(c.complainedRecipients).flatMap((r, i) => {
      const email = obj(r).emailAddress;
      if (typeof email !== 'string') return [];
      return [
        {
          ...base,
          kind: 'complaint',
          email,
          eventId: `${String(c.feedbackId ?? snsMessageId)}#${i}`,
          detail: { feedbackType: c.complaintFeedbackType, at: c.timestamp },
        } as EmailFeedbackEvent,
      ];
    });
  }
  return [];
}
