/**
 * Google Chat incoming-webhook adapter (`spaces.messages.create` through the webhook URL).
 *
 * - Body `{ text, cardsV2?, thread?: { threadKey } }`, `Content-Type: application/json; charset=UTF-8`.
 * - With a `threadKey` the URL gets `messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD`
 *   (without it Google always starts a new thread); `requestId` is passed for idempotency.
 * - Only URLs of `allowedOrigins` are called (default Google's), so a tampered configuration
 *   cannot point the server at internal addresses.
 * - Errors are `ChatPostError` carrying the space id; the URL (key, token) appears nowhere.
 */
import { jsonObject, providerFetch, retryAfterSeconds, statusKind } from '../../http/provider-http.js';
import {
  type ChatMessage,
  type ChatPoster,
  ChatPostError,
  type ChatPostResult,
  parseChatWebhookUrl,
} from '../chat.port.js';

export const GOOGLE_CHAT_ORIGIN = 'https://chat.googleapis.com';
export const DEFAULT_CHAT_TIMEOUT_MS = 10_000;
/** Google sends no Retry-After on 429; the quota is per minute, so a few seconds is a first step. */
export const DEFAULT_CHAT_RETRY_AFTER_SECONDS = 10;

export interface GoogleChatPosterOptions {
  /** Default `['https://chat.googleapis.com']`; add the local receiver's origin in tests. */
  allowedOrigins?: string[];
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

export function createGoogleChatPoster(opts: GoogleChatPosterOptions = {}): ChatPoster {
  const allowed = new Set((opts.allowedOrigins ?? [GOOGLE_CHAT_ORIGIN]).map((o) => new URL(o).origin));
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS;

  return {
    async post(webhookUrl: string, message: ChatMessage): Promise<ChatPostResult> {
      const parsed = parseChatWebhookUrl(webhookUrl);
      if (!parsed || !allowed.has(parsed.origin)) {
        throw new ChatPostError(
          'invalid_webhook_url',
          'Google Chat: the webhook URL is not an incoming-webhook URL of an allowed origin',
          parsed ? { space: parsed.space } : {},
        );
      }
      const { space } = parsed;
      const label = `Google Chat (space ${space})`;
      const url = new URL(webhookUrl);
      const body: Json = { text: message.text };
      if (message.cardsV2?.length) body['cardsV2'] = message.cardsV2;
      if (message.threadKey) {
        body['thread'] = { threadKey: message.threadKey };
        url.searchParams.set('messageReplyOption', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
      }
      if (message.requestId) url.searchParams.set('requestId', message.requestId);

      const res = await providerFetch(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=UTF-8', accept: 'application/json' },
          body: JSON.stringify(body),
        },
        {
          label,
          timeoutMs,
          error: (kind, message, status) =>
            new ChatPostError(kind, message, { space, ...(status === undefined ? {} : { status }) }),
        },
      );
      const json: Json = jsonObject(res.json);
      if (!res.ok) {
        const err = (json['error'] ?? {}) as Json;
        // Google's messages do not echo the URL, but make sure the credentials never leak.
        const secrets = [url.searchParams.get('key'), url.searchParams.get('token')].filter((s): s is string => !!s);
        const detail = secrets.reduce(
          (acc, s) => acc.split(s).join('[redacted]'),
          `${String(err['status'] ?? '')} ${String(err['message'] ?? '')}`.trim(),
        );
        const msg = `${label}: HTTP ${res.status}${detail ? `, ${detail}` : ''}`;
        const status = res.status;
        if (status === 429) {
          throw new ChatPostError('rate_limited', msg, {
            status,
            retryAfterSeconds: retryAfterSeconds(res.headers, DEFAULT_CHAT_RETRY_AFTER_SECONDS),
            space,
          });
        }
        const kind = status === 404 ? 'not_found' : statusKind(status);
        throw new ChatPostError(kind, msg, { status, space });
      }
      const name = json['name'];
      const threadName = (json['thread'] as Json | undefined)?.['name'];
      if (typeof name !== 'string' || typeof threadName !== 'string')
        throw new ChatPostError('format', `${label}: answer without message or thread name`, {
          status: res.status,
          space,
        });
      return { messageName: name, threadName };
    },
  };
}
