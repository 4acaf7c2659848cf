/**
 * Team-chat capability: post a message to a space through its incoming-webhook URL.
 *
 * The webhook URL IS the credential (key and token in its query): store it encrypted, never
 * log it and never put it in errors. Log the space id (`chatSpaceOf`) at most. Errors from
 * adapters carry the space id, never the URL.
 */
import { ProviderError } from '../http/provider-error.js';

export type ChatCardWidget =
  | { textParagraph: { text: string } }
  | { decoratedText: { topLabel?: string; text: string; bottomLabel?: string; wrapText?: boolean } }
  | { buttonList: { buttons: { text: string; onClick: { openLink: { url: string } } }[] } }
  | { divider: Record<string, never> };

export interface ChatCard {
  header?: { title: string; subtitle?: string; imageUrl?: string };
  sections: { header?: string; collapsible?: boolean; widgets: ChatCardWidget[] }[];
}

/** Google Chat's `cardsV2` item. */
export interface ChatCardV2 {
  /** Unique within the message, e.g. `invoice-INV-0042`. */
  cardId: string;
  card: ChatCard;
}

export interface ChatMessage {
  /** Plain text with `*bold*`, `_italic_`, `~strike~`, `` `code` ``; also the notification text when cards are sent. */
  text: string;
  cardsV2?: ChatCardV2[];
  /**
   * Groups messages in one thread (e.g. `fsm-order-17`): replies go to the thread with this
   * key, or start it when there is none yet.
   */
  threadKey?: string;
  /**
   * Idempotency key (e.g. the outbox row id): re-posting with the same id returns the message
   * created the first time instead of a duplicate.
   */
  requestId?: string;
}

export interface ChatPostResult {
  /** `spaces/{space}/messages/{id}`. */
  messageName: string;
  /** `spaces/{space}/threads/{id}`. */
  threadName: string;
}

export interface ChatPoster {
  post(webhookUrl: string, message: ChatMessage): Promise<ChatPostResult>;
}

export type ChatErrorKind =
  | 'invalid_webhook_url' // not an incoming-webhook URL of an allowed origin: configuration
  | 'rate_limited' // 429 (60 writes/min per space): retry after `retryAfterSeconds`, queue per space
  | 'unauthorized' // key/token refused: the webhook was deleted or the URL is wrong
  | 'not_found' // space gone (or REPLY_MESSAGE_OR_FAIL without thread)
  | 'rejected' // 400: the message itself was refused
  | 'http'
  | 'network'
  | 'timeout'
  | 'format';

/** A `ProviderError` of the chat port; adds the space id (safe to log), when the URL could be read. */
export class ChatPostError extends ProviderError<ChatErrorKind> {
  readonly space: string | undefined;

  constructor(
    kind: ChatErrorKind,
    message: string,
    opts: { status?: number; retryAfterSeconds?: number; space?: string } = {},
  ) {
    const { space, ...rest } = opts;
    super(kind, message, rest);
    this.name = 'ChatPostError';
    this.space = space;
  }
}

export interface ParsedChatWebhookUrl {
  /** e.g. `https://chat.googleapis.com`. */
  origin: string;
  space: string;
}

/**
 * Reads `{origin}/v1/spaces/{space}/messages?key=…&token=…`; undefined when the URL has another
 * shape or lacks key or token. The result holds no credential.
 */
export function parseChatWebhookUrl(webhookUrl: string): ParsedChatWebhookUrl | undefined {
  let u: URL;
  try {
    u = new URL(webhookUrl);
  } catch {
    return undefined;
  }
  const m = /^\/v1\/spaces\/([A-Za-z0-9_-]+)\/messages$/.exec(u.pathname);
  if (!m || !u.searchParams.get('key') || !u.searchParams.get('token')) return undefined;
  return { origin: u.origin, space: m[1] as string };
}

/** The space id of a webhook URL, safe to log; `unknown` when unreadable. */
export const chatSpaceOf = (webhookUrl: string): string => parseChatWebhookUrl(webhookUrl)?.space ?? 'unknown';
