/**
 * JustCall "get a text": `GET {baseUrl}/v2.1/texts/{id}` with `Authorization: api_key:api_secret`,
 * answering the text object (`data`, an object or a one-element array) or 404 when the account has
 * no such text. Used to read a webhook's message from the provider before acting on it, because
 * JustCall does not sign webhook bodies.
 */
import { providerFetch, retryAfterSeconds, statusKind } from '../../http/provider-http.js';
import { normalizeInternationalDigits } from '../phone.js';
import { SmsError, type SmsMessageReader, type SmsProviderMessage } from '../sms.port.js';
import {
  DEFAULT_JUSTCALL_RETRY_AFTER_SECONDS,
  DEFAULT_JUSTCALL_TIMEOUT_MS,
  JUSTCALL_API_URL,
} from './justcall-sms.client.js';
import { normalizeSmsStatus, parseJustCallTimestamp } from './justcall-webhook.js';

export interface JustCallTextsReaderOptions {
  apiKey: string;
  apiSecret: string;
  baseUrl?: string;
  timeoutMs?: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

export function createJustCallTextsReader(opts: JustCallTextsReaderOptions): SmsMessageReader {
  if (!opts.apiKey || !opts.apiSecret) throw new Error('JustCall texts reader: apiKey and apiSecret are required');
  const base = `${(opts.baseUrl ?? JUSTCALL_API_URL).replace(/\/+$/, '')}/v2.1/texts/`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_JUSTCALL_TIMEOUT_MS;
  const label = 'JustCall get text';
  return {
    async getMessage(id: string): Promise<SmsProviderMessage | null> {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null; // not an id the provider issues: nothing to ask
      const res = await providerFetch(
        base + encodeURIComponent(id),
        { headers: { authorization: `${opts.apiKey}:${opts.apiSecret}`, accept: 'application/json' } },
        {
          label,
          timeoutMs,
          error: (kind, message, status) => new SmsError(kind, message, status === undefined ? {} : { status }),
        },
      );
      if (res.status === 404) return null;
      if (res.status === 429)
        throw new SmsError('rate_limited', `${label}: HTTP 429`, {
          status: 429,
          retryAfterSeconds: retryAfterSeconds(res.headers, DEFAULT_JUSTCALL_RETRY_AFTER_SECONDS),
        });
      if (!res.ok) throw new SmsError(statusKind(res.status), `${label}: HTTP ${res.status}`, { status: res.status });
      if (res.json === undefined)
        throw new SmsError('format', `${label}: HTTP ${res.status} with a body that is not JSON`, {
          status: res.status,
        });
      const json: Json = obj(res.json);
      const data = json['data'];
      const m = obj(Array.isArray(data) ? data[0] : data);
      if (m['id'] === undefined || m['id'] === null) return null;
      if (String(m['id']) !== id)
        throw new SmsError('format', `${label}: asked for ${id}, got another text`, { status: res.status });
      const when =
        typeof m['sms_date'] === 'string' && typeof m['sms_time'] === 'string'
          ? parseJustCallTimestamp(`${m['sms_date']} ${m['sms_time']}`)
          : undefined;
      const incoming = String(m['direction'] ?? '')
        .toLowerCase()
        .startsWith('inc');
      return {
        providerMessageId: String(m['id']),
        direction: incoming ? 'inbound' : 'outbound',
        line: normalizeInternationalDigits(m['justcall_number']),
        contact: normalizeInternationalDigits(m['contact_number']),
        body: typeof obj(m['sms_info'])['body'] === 'string' ? (obj(m['sms_info'])['body'] as string) : '',
        status: incoming ? 'received' : normalizeSmsStatus(m['delivery_status']),
        createdAt: when,
      };
    },
  };
}
