/**
 * Log driver for team chat: posts nothing and logs ids only (space id, requestId, threadKey,
 * sizes), never the webhook URL (a credential) nor the text, which may name customers.
 */
import { createHash, randomUUID } from 'node:crypto';

import { type ChatMessage, type ChatPoster, type ChatPostResult, chatSpaceOf } from '../chat.port.js';

export interface ChatLogger {
  info(obj: Record<string, unknown>, msg: string): void;
}

export function createLogChatPoster(logger: ChatLogger): ChatPoster {
  return {
    async post(webhookUrl: string, message: ChatMessage): Promise<ChatPostResult> {
      const space = chatSpaceOf(webhookUrl);
      const messageName = `spaces/${space}/messages/log-${randomUUID()}`;
      // Same key, same thread name, without keeping state.
      const threadId = message.threadKey
        ? createHash('sha256').update(message.threadKey).digest('hex').slice(0, 16)
        : randomUUID();
      const threadName = `spaces/${space}/threads/log-${threadId}`;
      logger.info(
        {
          driver: 'log',
          space,
          messageName,
          requestId: message.requestId,
          threadKey: message.threadKey,
          textLength: message.text.length,
          cards: message.cardsV2?.length ?? 0,
        },
        'chat: message recorded by the log driver (not posted)',
      );
      return { messageName, threadName };
    },
  };
}
