/**
 * JustCall SMS adapter: `POST {baseUrl}/v2.1/texts/new` with
 * `{ justcall_number, contact_number, body }` and `Authorization: api_key:api_secret`.
 * Numbers go out as E.164 with `+` (JustCall's send docs), come in from our port without it.
 * The success body's exact shape is not pinned down in JustCall's public docs, so the id is
 * read from `data[0].id`, `data.id` or `id` and the status from `delivery_status`/`status`.
 * Errors are `SmsError`; messages never contain the key, the secret or the message text.
 */
import { jsonObject, providerFetch, retryAfterSeconds, statusKind } from '../../http/provider-http.js';
import {
  E164_DIGITS,
  MAX_SMS_BODY_LENGTH,
  SmsError,
  type SmsSender,
  type SmsSendInput,
  type SmsSendResult,
} from '../sms.port.js';
import { normalizeSmsStatus } from './justcall-webhook.js';

export const JUSTCALL_API_URL = 'https://api.justcall.io';
export const DEFAULT_JUSTCALL_TIMEOUT_MS = 10_000;
/** JustCall's burst limit is per minute; without a `Retry-After`, wait that long. */
export const DEFAULT_JUSTCALL_RETRY_AFTER_SECONDS = 60;

export interface JustCallSmsSenderOptions {
  apiKey: string;
  apiSecret: string;
  /** Default `https://api.justcall.io`. */
  baseUrl?: string;
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

export function createJustCallSmsSender(opts: JustCallSmsSenderOptions): SmsSender {
  if (!opts.apiKey || !opts.apiSecret) throw new Error('JustCall SMS sender: apiKey and apiSecret are required');
  const endpoint = `${(opts.baseUrl ?? JUSTCALL_API_URL).replace(/\/+$/, '')}/v2.1/texts/new`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_JUSTCALL_TIMEOUT_MS;
  const label = 'JustCall send SMS';

  return {
    async send(input: SmsSendInput): Promise<SmsSendResult> {
      if (!E164_DIGITS.test(input.from) || !E164_DIGITS.test(input.to)) {
        throw new SmsError('invalid_input', `${label}: from and to must be E.164 digits without +`);
      }
      if (input.body.trim() === '' || input.body.length > MAX_SMS_BODY_LENGTH) {
        throw new SmsError('invalid_input', `${label}: body must have 1..${MAX_SMS_BODY_LENGTH} characters`);
      }
      const res = await providerFetch(
        endpoint,
        {
          method: 'POST',
          headers: {
            authorization: `${opts.apiKey}:${opts.apiSecret}`,
            accept: 'application/json',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ justcall_number: `+${input.from}`, contact_number: `+${input.to}`, body: input.body }),
        },
        {
          label,
          timeoutMs,
          timeoutNote: 'the message may have been sent',
          error: (kind, message, status) => new SmsError(kind, message, status === undefined ? {} : { status }),
        },
      );
      const json: Json = jsonObject(res.json);
      const providerMsg = typeof json['message'] === 'string' ? `, ${json['message']}` : '';
      if (res.status === 429) {
        const retryAfter = retryAfterSeconds(res.headers, DEFAULT_JUSTCALL_RETRY_AFTER_SECONDS);
        throw new SmsError('rate_limited', `${label}: HTTP 429, retry after ${retryAfter} s`, {
          status: 429,
          retryAfterSeconds: retryAfter,
        });
      }
      if (!res.ok)
        throw new SmsError(statusKind(res.status), `${label}: HTTP ${res.status}${providerMsg}`, {
          status: res.status,
        });
      if (json['status'] === 'error')
        throw new SmsError('http', `${label}: HTTP ${res.status}${providerMsg}`, { status: res.status });

      const data = json['data'];
      const msg = (Array.isArray(data) ? data[0] : data) as Json | undefined;
      const id = msg?.['id'] ?? msg?.['message_id'] ?? json['id'];
      if (id === undefined || id === null || id === '')
        throw new SmsError('format', `${label}: HTTP ${res.status} without a message id`, { status: res.status });
      const status = normalizeSmsStatus(msg?.['delivery_status'] ?? msg?.['status']);
      return { providerMessageId: String(id), status: status === 'unknown' ? 'queued' : status };
    },
  };
}
