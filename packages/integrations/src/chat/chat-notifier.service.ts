/**
 * Posts a team-chat message for an ERP event when the company's flag for it is on (spec: "Each chat
 * event is sent only when its enable flag … is true"). One thread per record; the outbox job id is
 * the provider's requestId, so a redelivered job never posts twice. Keeps to 60 messages a minute
 * per space (the provider's limit), waiting rather than failing when over.
 */
import { randomUUID } from 'node:crypto';

import type { ErpEventPayload, ErpEventTopic } from '@platform/contracts';
import type { Limit, RateLimiter } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import { PermanentFailure, RetryLater } from '@platform/outbox';

import type { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import { chatMessage, FLAG_OF } from './chat-message.js';

/** The slice of the chat port this service uses (packages/providers chat.port.ts). */
export interface ChatPoster {
  post(
    webhookUrl: string,
    m: { text: string; cardsV2?: unknown[]; threadKey?: string; requestId?: string },
  ): Promise<unknown>;
}

export const CHAT_SPACE_LIMIT: Limit = { name: 'chat-space', max: 60, windowSeconds: 60 };

export type NotifyResult = { sent: true; space: string } | { sent: false; reason: 'not_configured' | 'disabled' };

export function spaceOf(webhookUrl: string): string {
  return /\/spaces\/([^/]+)\//.exec(new URL(webhookUrl).pathname)?.[1] ?? new URL(webhookUrl).host;
}

export class ChatNotifierService {
  constructor(
    private readonly settings: IntegrationSettingsService,
    private readonly chat: ChatPoster,
    private readonly limiter: RateLimiter,
  ) {}

  async notify(
    tenantId: string,
    topic: ErpEventTopic,
    event: ErpEventPayload,
    requestId: string,
  ): Promise<NotifyResult> {
    const company = Array.isArray(event.record.company_id) ? Number(event.record.company_id[0]) : 1;
    const config = await this.settings.chatConfig(tenantId, company);
    if (!config) return { sent: false, reason: 'not_configured' };
    if (!config[FLAG_OF[topic]]) return { sent: false, reason: 'disabled' };
    const space = spaceOf(config.webhookUrl);
    try {
      await this.limiter.consume(CHAT_SPACE_LIMIT, `${tenantId}:${space}`);
    } catch (e) {
      if (e instanceof AppError && e.code === 'RATE_LIMITED')
        throw new RetryLater(
          `chat space ${space} is at 60 messages a minute`,
          Number(e.details?.retry_after ?? 1) * 1000,
        );
      throw e;
    }
    const m = chatMessage(topic, event);
    try {
      await this.chat.post(config.webhookUrl, { text: m.text, cardsV2: m.cardsV2, threadKey: m.threadKey, requestId });
    } catch (e) {
      const retry = retryHint(e);
      if (retry !== undefined) throw new RetryLater(`chat space ${space} answered 429`, retry);
      // A URL the poster refuses, a revoked webhook (401/403/404), a refused body: retrying cannot help.
      if ((e as { retryable?: unknown })?.retryable === false)
        throw new PermanentFailure(`chat space ${space}: ${(e as Error).message}`, { cause: e });
      throw e;
    }
    return { sent: true, space };
  }

  /**
   * "Send a test" from the owner's console: one message posted now (not through the outbox: the
   * owner waits for the answer), whatever the flags say. Undefined when no webhook is configured.
   */
  async sendTest(tenantId: string, text: string, companyId = 1): Promise<{ ok: boolean; detail: string } | undefined> {
    const config = await this.settings.chatConfig(tenantId, companyId);
    if (!config) return undefined;
    const space = spaceOf(config.webhookUrl);
    try {
      await this.limiter.consume(CHAT_SPACE_LIMIT, `${tenantId}:${space}`);
      await this.chat.post(config.webhookUrl, { text, requestId: `test-${randomUUID()}` });
      return { ok: true, detail: `Posted to the chat space ${space}.` };
    } catch (e) {
      const why =
        e instanceof AppError && e.code === 'RATE_LIMITED' ? 'over 60 messages a minute' : (e as Error).message;
      return { ok: false, detail: `The chat space ${space} did not take the message: ${why}.` };
    }
  }
}

/** A 429 from the provider, whatever error type the adapter uses: wait the hint, or 10 s. */
function retryHint(e: unknown): number | undefined {
  const x = e as { status?: number; retryAfterSeconds?: number; retryAfterMs?: number; code?: string };
  if (x?.status !== 429 && x?.code !== 'RATE_LIMITED') return undefined;
  if (typeof x.retryAfterMs === 'number') return x.retryAfterMs;
  return (typeof x.retryAfterSeconds === 'number' ? x.retryAfterSeconds : 10) * 1000;
}
