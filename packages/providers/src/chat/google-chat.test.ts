import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type ChatCardV2, ChatPostError, chatSpaceOf, parseChatWebhookUrl } from './chat.port.js';
import { createGoogleChatPoster } from './googlechat/google-chat.poster.js';
import { type RunningLocalChat, startLocalChat } from './local/local-chat.server.js';
import { createLogChatPoster } from './log/log-chat.poster.js';

async function failure(p: Promise<unknown>, webhookUrl: string): Promise<ChatPostError> {
  const e = await p.then(
    () => new Error('expected a failure'),
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ChatPostError);
  const u = new URL(webhookUrl);
  for (const secret of [u.searchParams.get('key') ?? '', u.searchParams.get('token') ?? '', webhookUrl]) {
    expect((e as Error).message).not.toContain(secret);
    expect(JSON.stringify({ ...(e as object) })).not.toContain(secret);
  }
  return e as ChatPostError;
}

const card: ChatCardV2 = {
  cardId: 'invoice-INV-0042',
  card: {
    header: { title: 'Invoice posted' },
    sections: [{ widgets: [{ decoratedText: { topLabel: 'Total', text: '$446.00' } }] }],
  },
};

describe('Google Chat adapter against the local receiver', () => {
  let local: RunningLocalChat;
  let poster: ReturnType<typeof createGoogleChatPoster>;
  let hook: string;
  beforeAll(async () => {
    local = await startLocalChat();
    poster = createGoogleChatPoster({ allowedOrigins: [local.url] });
  });
  afterAll(() => local.close());
  beforeEach(() => {
    hook = local.webhookUrl(`SPACE${Math.random().toString(36).slice(2, 8)}`);
  });

  it('posts text and cards to the space', async () => {
    const r = await poster.post(hook, { text: '*Invoice posted* INV-0042', cardsV2: [card] });
    const space = chatSpaceOf(hook);
    expect(r.messageName).toMatch(new RegExp(`^spaces/${space}/messages/`));
    expect(r.threadName).toMatch(new RegExp(`^spaces/${space}/threads/`));
    expect(local.messages.at(-1)).toMatchObject({
      space,
      text: '*Invoice posted* INV-0042',
      cardsV2: [card],
      threadReply: false,
    });
  });

  it('replies in the thread of the same threadKey, and starts one for a new key', async () => {
    const first = await poster.post(hook, { text: 'FSM order 17: Scheduled', threadKey: 'fsm-17' });
    const second = await poster.post(hook, { text: 'FSM order 17: In progress', threadKey: 'fsm-17' });
    const other = await poster.post(hook, { text: 'FSM order 18: Scheduled', threadKey: 'fsm-18' });
    expect(second.threadName).toBe(first.threadName);
    expect(other.threadName).not.toBe(first.threadName);
    expect(local.messages.slice(-3).map((m) => m.threadReply)).toEqual([false, true, false]);
  });

  it('would start a new thread each time without the reply option (why the adapter sets it)', async () => {
    const u = new URL(hook);
    const post = () =>
      fetch(u, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'x', thread: { threadKey: 'k' } }),
      }).then((r) => r.json() as Promise<{ thread: { name: string } }>);
    expect((await post()).thread.name).not.toBe((await post()).thread.name);
  });

  it('returns the first message again for a repeated requestId (no duplicate)', async () => {
    const a = await poster.post(hook, { text: 'Sale SO-12 confirmed', requestId: 'outbox-981' });
    const b = await poster.post(hook, { text: 'Sale SO-12 confirmed', requestId: 'outbox-981' });
    expect(b).toEqual(a);
    expect(local.messages.filter((m) => m.requestId === 'outbox-981')).toHaveLength(1);
  });

  it('turns a 429 RESOURCE_EXHAUSTED into a retryable rate_limited error with a retry hint', async () => {
    local.failNext(1);
    const e = await failure(poster.post(hook, { text: 'x' }), hook);
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, space: chatSpaceOf(hook) });
    expect(e.retryable).toBe(true);
    expect(e.retryAfterSeconds).toBeGreaterThan(0);
    expect(e.message).toContain('RESOURCE_EXHAUSTED');
    expect((await poster.post(hook, { text: 'after the burst' })).messageName).toBeTruthy();
  });

  it('enforces 60 writes per minute per space, not across spaces', async () => {
    for (let i = 0; i < 60; i++) await poster.post(hook, { text: `m${i}` });
    expect((await failure(poster.post(hook, { text: 'm60' }), hook)).kind).toBe('rate_limited');
    expect((await poster.post(local.webhookUrl('OTHERSPACE'), { text: 'fine' })).messageName).toBeTruthy();
    local.advanceTime(60_001);
    expect((await poster.post(hook, { text: 'next minute' })).messageName).toBeTruthy();
  });

  it('reports a wrong token as unauthorized without revealing the URL', async () => {
    const u = new URL(hook);
    u.searchParams.set('token', 'not-the-token');
    expect((await failure(poster.post(u.toString(), { text: 'x' }), u.toString())).kind).toBe('unauthorized');
  });

  it('reports an empty message as rejected', async () => {
    const e = await failure(poster.post(hook, { text: '' }), hook);
    expect(e.kind).toBe('rejected');
    expect(e.retryable).toBe(false);
  });

  it('refuses URLs outside the allowed origins or without credentials, before any request', async () => {
    const before = local.messages.length;
    const google = createGoogleChatPoster();
    expect((await failure(google.post(hook, { text: 'x' }), hook)).kind).toBe('invalid_webhook_url');
    const noToken = hook.replace(/&token=[^&]+/, '');
    expect((await failure(poster.post(noToken, { text: 'x' }), hook)).kind).toBe('invalid_webhook_url');
    expect(local.messages.length).toBe(before);
  });

  it('reports an unreachable endpoint as a retryable network error', async () => {
    const down = 'http://127.0.0.1:9/v1/spaces/AAAA/messages?key=k1&token=t1';
    const e = await failure(
      createGoogleChatPoster({ allowedOrigins: ['http://127.0.0.1:9'] }).post(down, { text: 'x' }),
      down,
    );
    expect(e.kind).toBe('network');
    expect(e.retryable).toBe(true);
  });
});

describe('chat webhook URL helpers', () => {
  it('reads the space id and nothing secret', () => {
    const url = 'https://chat.googleapis.com/v1/spaces/AAAAxyz/messages?key=KEY123&token=TOK456';
    expect(parseChatWebhookUrl(url)).toEqual({ origin: 'https://chat.googleapis.com', space: 'AAAAxyz' });
    expect(chatSpaceOf('https://example.com/other')).toBe('unknown');
    expect(chatSpaceOf('not a url')).toBe('unknown');
  });
});

describe('chat log driver', () => {
  it('posts nothing and logs the space id, never the URL or text', async () => {
    const lines: string[] = [];
    const poster = createLogChatPoster({ info: (obj, msg) => lines.push(JSON.stringify(obj) + msg) });
    const url = 'https://chat.googleapis.com/v1/spaces/AAAAxyz/messages?key=KEY123&token=TOK456';
    const a = await poster.post(url, { text: 'Lead Jane Doe 555-0100', threadKey: 'lead-1', requestId: 'r1' });
    const b = await poster.post(url, { text: 'again', threadKey: 'lead-1' });
    expect(b.threadName).toBe(a.threadName);
    expect(lines[0]).toContain('AAAAxyz');
    for (const leak of ['KEY123', 'TOK456', 'Jane', '555-0100', 'chat.googleapis.com'])
      expect(lines.join('\n')).not.toContain(leak);
  });
});
