/**
 * Xero webhooks: `x-xero-signature` = base64(HMAC-SHA256(webhook key, raw body bytes)).
 *
 * Receiver rules (Xero's): verify the RAW bytes (never re-serialised JSON), compare in
 * constant time, answer 401 to a bad signature and 200 with an EMPTY body within 5 s to a good
 * one, intent-to-receive probes included. Events carry no invoice data: GET the invoice with
 * that tenant's token. Batches may be out of order, repeated and multi-tenant; dedupe on
 * `webhookEventKey(event)` (tenantId + resourceId + eventDateUtc).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import {
  AccountingError,
  type AccountingWebhookBatch,
  type AccountingWebhookEvent,
  type AccountingWebhookVerifier,
  webhookEventKey,
} from '../accounting.port.js';

export { webhookEventKey };

export const XERO_SIGNATURE_HEADER = 'x-xero-signature';

export function signXeroPayload(rawBody: Buffer | string, webhookKey: string): string {
  return createHmac('sha256', webhookKey).update(rawBody).digest('base64');
}

/** True only when `header` is exactly the base64 HMAC of `rawBody` under `webhookKey`. */
export function verifyXeroSignature(rawBody: Buffer, header: string | undefined, webhookKey: string): boolean {
  if (!webhookKey || typeof header !== 'string' || header === '') return false;
  const expected = Buffer.from(signXeroPayload(rawBody, webhookKey), 'utf8');
  const given = Buffer.from(header, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const bad = (msg: string): never => {
  throw new AccountingError('format', `Xero webhook payload: ${msg}`);
};

function str(o: Record<string, unknown>, key: string, i: number): string {
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : bad(`events[${i}].${key} must be a non-empty string`);
}

/** `eventDateUtc` has no zone designator; it is UTC. */
function utcDate(s: string, i: number): Date {
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s}Z`;
  const t = Date.parse(withZone);
  return Number.isNaN(t) ? bad(`events[${i}].eventDateUtc is not a date`) : new Date(t);
}

/**
 * Parses a verified body. Throws `AccountingError` kind `format` when it is not Xero's shape.
 * Call only after `verifyXeroSignature` succeeded.
 */
export function parseXeroWebhook(rawBody: Buffer | string): AccountingWebhookBatch {
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    return bad('not JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return bad('not an object');
  const body = json as Record<string, unknown>;
  if (!Array.isArray(body['events'])) return bad('events must be an array');
  const events = (body['events'] as unknown[]).map((raw, i): AccountingWebhookEvent => {
    if (!raw || typeof raw !== 'object') return bad(`events[${i}] must be an object`);
    const e = raw as Record<string, unknown>;
    const eventDateUtc = str(e, 'eventDateUtc', i);
    return {
      resourceUrl: str(e, 'resourceUrl', i),
      resourceId: str(e, 'resourceId', i),
      eventDateUtc,
      occurredAt: utcDate(eventDateUtc, i),
      eventType: str(e, 'eventType', i),
      eventCategory: str(e, 'eventCategory', i),
      tenantId: str(e, 'tenantId', i),
      tenantType: typeof e['tenantType'] === 'string' ? e['tenantType'] : 'ORGANISATION',
    };
  });
  const seq = (key: string): number =>
    typeof body[key] === 'number' ? (body[key] as number) : bad(`${key} must be a number`);
  return {
    events,
    firstEventSequence: seq('firstEventSequence'),
    lastEventSequence: seq('lastEventSequence'),
    entropy: typeof body['entropy'] === 'string' ? body['entropy'] : '',
    isIntentToReceive: events.length === 0,
  };
}

/** Xero's webhooks behind the accounting port. */
export const xeroWebhookVerifier: AccountingWebhookVerifier = {
  verify(request, webhookKey) {
    const h = request.headers[XERO_SIGNATURE_HEADER];
    return verifyXeroSignature(request.rawBody, typeof h === 'string' ? h : undefined, webhookKey);
  },
  parse: (request) => parseXeroWebhook(request.text ?? request.rawBody),
};
