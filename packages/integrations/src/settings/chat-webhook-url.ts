/** The team-chat webhook URL rules of the integration settings (CHAT_ALLOWED_ORIGINS). */
import { AppError } from '@platform/kernel';
import { parseChatWebhookUrl } from '@platform/providers';

/** A comma-separated origin list (CHAT_ALLOWED_ORIGINS) as a list. */
export const chatOrigins = (list: string): string[] =>
  list
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);

/**
 * The URL to store, or a VALIDATION_FAILED naming `webhook_url`: it is required (for a company's
 * first setting), and one the worker would refuse to call is refused now, not retried into the
 * dead letters later.
 */
export function checkChatWebhookUrl(url: string | undefined, allowedOrigins: Set<string>): string {
  if (!url) {
    const message = 'is required for the first team-chat setting of this company';
    throw new AppError('VALIDATION_FAILED', `webhook_url ${message}.`, {
      fieldIssues: [{ field: 'webhook_url', rule: 'required', message }],
    });
  }
  const parsed = parseChatWebhookUrl(url);
  if (!parsed || !allowedOrigins.has(parsed.origin)) {
    const rule = parsed ? 'allowed_origin' : 'format';
    const message = parsed
      ? `must be on an allowed origin (CHAT_ALLOWED_ORIGINS: ${[...allowedOrigins].join(', ')})`
      : 'must be an incoming-webhook URL: <origin>/v1/spaces/<space>/messages?key=…&token=…';
    throw new AppError('VALIDATION_FAILED', `webhook_url ${message}.`, {
      fieldIssues: [{ field: 'webhook_url', rule, message }],
    });
  }
  return url;
}
