/**
 * Postmark's HTTP API (POST /email, header X-Postmark-Server-Token). Transactional mail goes to the
 * server's `outbound` stream, bulk mail to a broadcast stream, as Postmark requires. Errors are
 * mapped to our failure kinds: 5xx, timeouts and network errors are `unavailable`; a refused
 * token, sender signature or account (HTTP 401, ErrorCode 10, 400, 401, 405, 412) is `account`;
 * ErrorCode 406 (inactive recipient) is `recipient_inactive`; other 422s are `rejected`.
 */
import { jsonObject, providerFetch, retryAfterSeconds } from '../../http/provider-http.js';
import {
  type EmailMessage,
  type EmailSender,
  EmailSendError,
  type EmailSendResult,
  formatAddress,
} from '../email.port.js';

export interface PostmarkOptions {
  serverToken: string;
  /** https://api.postmarkapp.com, or the local stand-in. */
  baseUrl?: string;
  timeoutMs?: number;
  transactionalStream?: string;
  bulkStream?: string;
  fetch?: typeof fetch;
}

const ACCOUNT_ERRORS = new Set([10, 400, 401, 405, 412]);

export function createPostmarkSender(o: PostmarkOptions): EmailSender {
  const base = (o.baseUrl ?? 'https://api.postmarkapp.com').replace(/\/$/, '');
  const doFetch = o.fetch ?? fetch;
  const fail = (kind: ConstructorParameters<typeof EmailSendError>[0], msg: string, retryAfterMs?: number) =>
    new EmailSendError(kind, `postmark: ${msg}`, 'postmark', retryAfterMs);
  return {
    name: 'postmark',
    async send(m: EmailMessage): Promise<EmailSendResult> {
      const body = {
        From: formatAddress(m.from),
        To: formatAddress(m.to),
        ...(m.replyTo ? { ReplyTo: formatAddress(m.replyTo) } : {}),
        Subject: m.subject,
        TextBody: m.text,
        HtmlBody: m.html,
        ...(m.attachments?.length
          ? {
              Attachments: m.attachments.map((a) => ({
                Name: a.filename,
                Content: a.contentBase64,
                ContentType: a.contentType,
              })),
            }
          : {}),
        ...(m.tags[0] ? { Tag: m.tags[0] } : {}),
        Metadata: { tenant_id: m.tenantId, message_id: m.id },
        MessageStream: m.lane === 'bulk' ? (o.bulkStream ?? 'broadcast') : (o.transactionalStream ?? 'outbound'),
        Headers: [
          ...Object.entries(m.headers ?? {}).map(([Name, Value]) => ({ Name, Value })),
          { Name: 'X-Platform-Message-Key', Value: m.key },
        ],
      };
      const res = await providerFetch(
        `${base}/email`,
        {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            'x-postmark-server-token': o.serverToken,
          },
          body: JSON.stringify(body),
        },
        // No answer: the message may not have been taken; the failover provider may try.
        {
          label: 'postmark',
          timeoutMs: o.timeoutMs ?? 10_000,
          causeInMessage: true,
          fetch: doFetch,
          error: (_kind, message) => new EmailSendError('unavailable', message, 'postmark'),
        },
      );
      const reply = jsonObject(res.json) as { MessageID?: string; ErrorCode?: number; Message?: string };
      const what = `HTTP ${res.status}${reply.ErrorCode ? ` ErrorCode ${reply.ErrorCode}` : ''}${reply.Message ? `: ${String(reply.Message).slice(0, 200)}` : ''}`;
      if (res.ok && reply.ErrorCode === 0 && reply.MessageID)
        return { provider: 'postmark', providerMessageId: reply.MessageID };
      if (res.status >= 500) throw fail('unavailable', what);
      if (res.status === 429) {
        const s = retryAfterSeconds(res.headers, 30);
        throw fail('rate_limited', what, s > 0 ? s * 1000 : 30_000);
      }
      if (res.status === 401 || res.status === 403 || ACCOUNT_ERRORS.has(reply.ErrorCode ?? -1))
        throw fail('account', what);
      if (reply.ErrorCode === 406) throw fail('recipient_inactive', what);
      if (res.ok) throw fail('unavailable', `unexpected answer ${what}`);
      throw fail('rejected', what);
    },
  };
}
