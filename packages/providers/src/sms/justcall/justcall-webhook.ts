/**
 * JustCall webhooks ("dynamic webhook signatures", v1):
 *   x-justcall-signature = hex(HMAC-SHA256(secret, secret|encodeURIComponent(webhook_url)|type|timestamp))
 *   x-justcall-request-timestamp = e.g. `2024-03-21 17:08:22` (read as UTC; Unix seconds accepted)
 * JustCall signs with the API secret; we take the key as configured ("Webhook Secret").
 * The body itself is NOT signed: only URL, type and time are. Hence: reject stale timestamps,
 * dedupe on `request_id`, and re-fetch the message by id when it matters.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { type Clock, systemClock } from '@platform/kernel';

import { normalizeInternationalDigits } from '../phone.js';
import type {
  SmsEvent,
  SmsEventType,
  SmsStatus,
  SmsWebhookReceiver,
  SmsWebhookRequest,
  SmsWebhookResult,
} from '../sms.port.js';

export const JUSTCALL_SIGNATURE_HEADER = 'x-justcall-signature';
export const JUSTCALL_TIMESTAMP_HEADER = 'x-justcall-request-timestamp';
export const JUSTCALL_SIGNATURE_VERSION_HEADER = 'x-justcall-signature-version';
export const DEFAULT_JUSTCALL_REPLAY_WINDOW_SECONDS = 300;

export interface JustCallSignatureInput {
  secret: string;
  webhookUrl: string;
  type: string;
  timestamp: string;
}

export function signJustCall(i: JustCallSignatureInput): string {
  return createHmac('sha256', i.secret)
    .update(`${i.secret}|${encodeURIComponent(i.webhookUrl)}|${i.type}|${i.timestamp}`, 'utf8')
    .digest('hex');
}

export function verifyJustCallSignature(i: JustCallSignatureInput & { signature: string | undefined }): boolean {
  if (!i.secret || typeof i.signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(i.signature)) return false;
  return timingSafeEqual(Buffer.from(signJustCall(i), 'hex'), Buffer.from(i.signature, 'hex'));
}

/** `YYYY-MM-DD HH:mm:ss` (UTC) or Unix seconds/milliseconds. */
export function parseJustCallTimestamp(ts: string | undefined): Date | undefined {
  if (typeof ts !== 'string') return undefined;
  const s = ts.trim();
  if (/^\d{9,13}$/.test(s)) return new Date(s.length > 10 ? Number(s) : Number(s) * 1000);
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(t) ? undefined : new Date(t);
}

/** Formats a time the way JustCall sends it (`YYYY-MM-DD HH:mm:ss`, UTC). */
export const formatJustCallTimestamp = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');

export function normalizeSmsStatus(v: unknown): SmsStatus {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (s === 'delivered' || s === 'sent' || s === 'undelivered' || s === 'failed' || s === 'received') return s;
  if (s === 'queued' || s === 'pending' || s === 'accepted' || s === 'sending') return 'queued';
  return 'unknown';
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/**
 * Normalises a (verified) JustCall body. Returns null for types other than SMS events.
 * `sms.sent_received` is split by `direction`. Throws on an SMS event without message id.
 */
export function parseJustCallEvent(body: unknown, fallbackTime: Date): SmsEvent | null {
  const env = obj(body);
  const data = obj(env['data']);
  const incoming = String(data['direction'] ?? '')
    .toLowerCase()
    .startsWith('inc');
  const rawType = String(env['type'] ?? '');
  const type: SmsEventType | null =
    rawType === 'sms.received' || rawType === 'sms.sent' || rawType === 'sms.delivered'
      ? rawType
      : rawType === 'sms.sent_received'
        ? incoming
          ? 'sms.received'
          : 'sms.sent'
        : null;
  if (type === null) return null;
  if (data['id'] === undefined || data['id'] === null || typeof env['request_id'] !== 'string')
    throw new Error('SMS event without data.id or request_id');
  const date =
    typeof data['sms_date'] === 'string' && typeof data['sms_time'] === 'string'
      ? parseJustCallTimestamp(`${data['sms_date']} ${data['sms_time']}`)
      : undefined;
  const status =
    type === 'sms.received' ? 'received' : type === 'sms.sent' ? 'sent' : normalizeSmsStatus(data['delivery_status']);
  return {
    type,
    eventId: env['request_id'],
    providerMessageId: String(data['id']),
    line: normalizeInternationalDigits(data['justcall_number']),
    lineName: typeof data['justcall_line_name'] === 'string' ? data['justcall_line_name'] : undefined,
    contact: normalizeInternationalDigits(data['contact_number']),
    body: typeof obj(data['sms_info'])['body'] === 'string' ? (obj(data['sms_info'])['body'] as string) : '',
    occurredAt: date ?? fallbackTime,
    status,
    raw: body,
  };
}

export interface JustCallWebhookReceiverOptions {
  /**
   * The configured "Webhook Secret" (JustCall: the API secret), or several during a rotation
   * overlap (current first, then the previous one until it expires): any of them may sign.
   */
  secret: string | string[];
  /**
   * Our public webhook URL exactly as registered at JustCall (e.g.
   * `https://{erp_domain}/sms/webhook/sms`). When set, signatures are checked against it rather
   * than the unsigned `webhook_url` of the body. Recommended.
   */
  webhookUrl?: string;
  /** Allowed clock difference either way, default 300 s. */
  replayWindowSeconds?: number;
  clock?: Clock;
}

const header = (h: SmsWebhookRequest['headers'], name: string): string | undefined => {
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

export function createJustCallWebhookReceiver(opts: JustCallWebhookReceiverOptions): SmsWebhookReceiver {
  const secrets = (Array.isArray(opts.secret) ? opts.secret : [opts.secret]).filter((x) => x);
  if (!secrets.length) throw new Error('JustCall webhook receiver: secret is required');
  const windowMs = (opts.replayWindowSeconds ?? DEFAULT_JUSTCALL_REPLAY_WINDOW_SECONDS) * 1000;
  const clock = opts.clock ?? systemClock;
  return {
    receive(req: SmsWebhookRequest): SmsWebhookResult {
      const signature = header(req.headers, JUSTCALL_SIGNATURE_HEADER);
      const timestamp = header(req.headers, JUSTCALL_TIMESTAMP_HEADER);
      if (!signature || !timestamp) return { ok: false, reason: 'missing_signature' };
      let body: Json;
      try {
        body = obj(JSON.parse(typeof req.rawBody === 'string' ? req.rawBody : req.rawBody.toString('utf8')));
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const type = typeof body['type'] === 'string' ? body['type'] : '';
      const webhookUrl = opts.webhookUrl ?? (typeof body['webhook_url'] === 'string' ? body['webhook_url'] : '');
      if (!secrets.some((secret) => verifyJustCallSignature({ secret, webhookUrl, type, timestamp, signature })))
        return { ok: false, reason: 'bad_signature' };
      const at = parseJustCallTimestamp(timestamp);
      if (!at || Math.abs(clock.now().getTime() - at.getTime()) > windowMs)
        return { ok: false, reason: 'stale_timestamp' };
      try {
        const event = parseJustCallEvent(body, at);
        const sig = signature.toLowerCase();
        return event
          ? { ok: true, event, signature: sig, signedAt: at }
          : { ok: true, event: null, type, signature: sig, signedAt: at };
      } catch {
        return { ok: false, reason: 'malformed' };
      }
    },
  };
}
