/**
 * LOCAL Google Chat incoming-webhook receiver, for embedded mode and tests only.
 *
 * `POST /v1/spaces/:space/messages?key&token[&requestId][&messageReplyOption]` behaves like
 * Google's: key/token must match the space's webhook (401 UNAUTHENTICATED; unknown space 404),
 * text or cards required (400 INVALID_ARGUMENT), `requestId` reuse returns the first message,
 * `thread.threadKey` joins an existing thread only with a REPLY_* option (FALLBACK starts one,
 * OR_FAIL answers 404), 60 writes per minute per space (429 RESOURCE_EXHAUSTED).
 * `failNext(n)` makes the next n requests answer 429. Messages are recorded in memory.
 */
import { randomBytes } from 'node:crypto';

import Fastify, { type FastifyReply } from 'fastify';

export interface LocalChatOptions {
  /** Writes per minute per space, default 60 (Google's). */
  writesPerMinute?: number;
  now?: () => Date;
  host?: string;
  port?: number;
}

export interface LocalChatMessage {
  name: string;
  space: string;
  text: string | undefined;
  cardsV2: unknown[] | undefined;
  threadName: string;
  threadKey: string | undefined;
  /** True when the message went into an existing thread. */
  threadReply: boolean;
  requestId: string | undefined;
  createTime: Date;
}

export interface RunningLocalChat {
  url: string;
  /** Creates (or returns) the incoming-webhook URL of a space; default space `AAAALocal`. */
  webhookUrl(space?: string): string;
  messages: LocalChatMessage[];
  failNext(times?: number): void;
  advanceTime(ms: number): void;
  close(): Promise<void>;
}

interface SpaceState {
  key: string;
  token: string;
  /** Times (ms) of the writes inside the rolling minute. */
  writes: number[];
  threadsByKey: Map<string, string>;
  threadNames: Set<string>;
  byRequest: Map<string, LocalChatMessage>;
}

const id = (): string => randomBytes(8).toString('base64url');
const gError = (reply: FastifyReply, code: number, status: string, message: string) =>
  reply.code(code).send({ error: { code, message, status } });
const REPLY_OPTIONS = new Set(['REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD', 'REPLY_MESSAGE_OR_FAIL']);

export async function startLocalChat(opts: LocalChatOptions = {}): Promise<RunningLocalChat> {
  let offsetMs = 0;
  const nowMs = (): number => (opts.now ? opts.now().getTime() : Date.now()) + offsetMs;
  const limit = opts.writesPerMinute ?? 60;
  const spaces = new Map<string, SpaceState>();
  const messages: LocalChatMessage[] = [];
  let failures = 0;

  const wire = (m: LocalChatMessage) => ({
    name: m.name,
    sender: { name: 'users/local-webhook', displayName: 'Local webhook', type: 'BOT' },
    ...(m.text === undefined ? {} : { text: m.text, argumentText: m.text }),
    ...(m.cardsV2 ? { cardsV2: m.cardsV2 } : {}),
    createTime: m.createTime.toISOString(),
    thread: { name: m.threadName, ...(m.threadKey ? { threadKey: m.threadKey } : {}) },
    space: { name: `spaces/${m.space}`, type: 'ROOM', spaceType: 'SPACE' },
    threadReply: m.threadReply,
  });

  const app = Fastify({ logger: false });
  app.post('/v1/spaces/:space/messages', async (req, reply) => {
    const space = (req.params as { space: string }).space;
    const q = req.query as Record<string, string | undefined>;
    const s = spaces.get(space);
    if (!s) return gError(reply, 404, 'NOT_FOUND', `Space spaces/${space} not found.`);
    if (q['key'] !== s.key || q['token'] !== s.token)
      return gError(reply, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    if (failures > 0) {
      failures--;
      return gError(reply, 429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
    }
    const requestId = q['requestId'];
    const earlier = requestId ? s.byRequest.get(requestId) : undefined;
    if (earlier) return wire(earlier);

    const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
    const text = typeof b['text'] === 'string' && b['text'] !== '' ? b['text'] : undefined;
    const cards = Array.isArray(b['cardsV2']) && b['cardsV2'].length > 0 ? (b['cardsV2'] as unknown[]) : undefined;
    if (!text && !cards)
      return gError(
        reply,
        400,
        'INVALID_ARGUMENT',
        'Message cannot be empty. Discarded message: text or cardsV2 is required.',
      );
    if (cards?.some((c) => !c || typeof c !== 'object' || typeof (c as Record<string, unknown>)['card'] !== 'object')) {
      return gError(reply, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload: every cardsV2 item needs a card.');
    }

    const now = nowMs();
    s.writes = s.writes.filter((t) => now - t < 60_000);
    if (s.writes.length >= limit)
      return gError(
        reply,
        429,
        'RESOURCE_EXHAUSTED',
        `Resource has been exhausted (e.g. check quota). Quota: ${limit} writes per minute per space.`,
      );

    const thread = (b['thread'] ?? {}) as Record<string, unknown>;
    const option = q['messageReplyOption'] ?? 'MESSAGE_REPLY_OPTION_UNSPECIFIED';
    const threadKey = typeof thread['threadKey'] === 'string' ? thread['threadKey'] : q['threadKey'];
    // Without a REPLY_* option Google ignores the thread and starts a new one; the deprecated
    // `threadKey` query parameter replies or creates, like FALLBACK.
    const replies = REPLY_OPTIONS.has(option) || q['threadKey'] !== undefined;
    const byName = typeof thread['name'] === 'string' && s.threadNames.has(thread['name']) ? thread['name'] : undefined;
    let threadName = replies ? ((threadKey ? s.threadsByKey.get(threadKey) : undefined) ?? byName) : undefined;
    if (!threadName && option === 'REPLY_MESSAGE_OR_FAIL') return gError(reply, 404, 'NOT_FOUND', 'Thread not found.');
    const threadReply = threadName !== undefined;
    if (!threadName) {
      threadName = `spaces/${space}/threads/${id()}`;
      s.threadNames.add(threadName);
      if (replies && threadKey) s.threadsByKey.set(threadKey, threadName);
    }

    s.writes.push(now);
    const m: LocalChatMessage = {
      name: `spaces/${space}/messages/${id()}`,
      space,
      text,
      cardsV2: cards,
      threadName,
      threadKey: replies ? threadKey : undefined,
      threadReply,
      requestId,
      createTime: new Date(now),
    };
    messages.push(m);
    if (requestId) s.byRequest.set(requestId, m);
    return wire(m);
  });

  const url = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  return {
    url,
    webhookUrl(space = 'AAAALocal') {
      let s = spaces.get(space);
      if (!s) {
        s = {
          key: `AIza${id()}`,
          token: id(),
          writes: [],
          threadsByKey: new Map(),
          threadNames: new Set(),
          byRequest: new Map(),
        };
        spaces.set(space, s);
      }
      return `${url}/v1/spaces/${space}/messages?key=${s.key}&token=${s.token}`;
    },
    messages,
    failNext: (times = 1) => void (failures += times),
    advanceTime: (ms) => void (offsetMs += ms),
    close: () => app.close(),
  };
}
