/**
 * Postmark's bounce and spam-complaint webhooks. Postmark does not sign them: the receiver is
 * protected by HTTP basic auth in the webhook URL and/or a custom header, compared in constant time.
 * A hard bounce (`HardBounce`, TypeCode 1) or any record with `Inactive: true` means Postmark stopped
 * sending to the address; `SpamComplaint` (TypeCode 512) can never be reactivated.
 */
import { timingSafeEqual } from 'node:crypto';

import type { EmailFeedbackEvent, EmailWebhookReceiver, EmailWebhookResult } from '../email.port.js';

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

export interface PostmarkWebhookOptions {
  /** Basic auth in the webhook URL Postmark was given (`https://user:pass@…`). */
  basicAuth?: { user: string; password: string };
  /** A custom header Postmark sends with each webhook, as `Name: value`. */
  header?: string;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};
const refused = (detail: string): EmailWebhookResult => ({ ok: false, reason: 'unauthenticated', detail });

/** POST /email/webhook/postmark: the configured basic auth and/or header, then one bounce or complaint. */
export function createPostmarkWebhookReceiver(o: PostmarkWebhookOptions): EmailWebhookReceiver {
  const authenticate = (headers: Record<string, string | string[] | undefined>): EmailWebhookResult | undefined => {
    if (!o.basicAuth && !o.header)
      return refused('The Postmark webhook is not configured (EMAIL_WEBHOOK_POSTMARK_USER/_PASSWORD or _HEADER).');
    if (o.basicAuth) {
      const expected = `Basic ${Buffer.from(`${o.basicAuth.user}:${o.basicAuth.password}`).toString('base64')}`;
      if (!same(String(headers.authorization ?? ''), expected)) return refused('Basic authentication failed.');
    }
    if (o.header) {
      const i = o.header.indexOf(':');
      const name = o.header.slice(0, i).trim().toLowerCase();
      const value = o.header.slice(i + 1).trim();
      if (!same(String(headers[name] ?? ''), value)) return refused(`The ${name} header is missing or wrong.`);
    }
    return undefined;
  };
  return {
    route: 'postmark',
    provider: 'postmark',
    async receive({ headers, body }) {
      const refusal = authenticate(headers);
      if (refusal) return refusal;
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const event = parsePostmarkWebhook(json);
      if (!event)
        return {
          ok: false,
          reason: 'malformed',
          detail: 'Not a Postmark bounce or spam-complaint webhook (Email and ID are required).',
        };
      return { ok: true, events: [event] };
    },
  };
}
