/**
 * LOCAL SMS provider stand-in speaking JustCall's protocol, for embedded mode and tests only.
 *
 * - `POST /v2.1/texts/new` (`Authorization: key:secret`, raw or Basic): records the message,
 *   answers `{ status: 'success', data: [smsObject] }`, then posts signed `sms.sent` and
 *   `sms.delivered` webhooks to `webhookUrl`, in that order;
 * - `GET /v2.1/texts/:id` (JustCall's "get a text"): the recorded message as `{ status, data: [smsObject] }`,
 *   404 for an id the account does not have (webhook bodies are unsigned: receivers read it back);
 * - controls: `simulateInbound` (posts `sms.received`), `resendWebhook` (duplicates),
 *   `failNext` (429/5xx), `advanceTime`, `setWebhookSecret` (rotation), and the records `messages` / `webhooks`.
 * Webhooks are signed exactly like JustCall's (see justcall-webhook.ts) with `webhookSecret`.
 *
 * Several accounts share one host, as at JustCall (two companies, each with its own API key and
 * secret, webhook secret, webhook URL and lines): the options' own credentials are the first account,
 * `accounts` adds more. A key reads and sends only its own account's texts; a customer texting a
 * line is delivered to the account that has the line, signed with that account's secret.
 */
import { randomBytes } from 'node:crypto';

import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

import { formatJustCallTimestamp, signJustCall } from '../justcall/justcall-webhook.js';
import { checkedAccount, type LocalSmsAccount, putAccount } from './local-sms.accounts.js';
import { loadMessages, type LocalSmsMessage, saveMessages, smsObject } from './local-sms.records.js';

export type { LocalSmsAccount } from './local-sms.accounts.js';
export type { LocalSmsMessage } from './local-sms.records.js';

export interface LocalSmsOptions {
  /** More accounts on the same host (the options' own credentials are the first). */
  accounts?: LocalSmsAccount[];
  apiKey: string;
  apiSecret: string;
  /** Signing key of the webhooks (the receiver's "Webhook Secret"). */
  webhookSecret: string;
  webhookUrl?: string;
  /** Our lines; when given, sends from any other number are refused. Digits without `+`. */
  lines?: { number: string; name: string }[];
  now?: () => Date;
  host?: string;
  port?: number;
  /**
   * Where the messages are kept (mode 0600) so a restart neither loses them nor numbers new ones
   * from the start again (ids a receiver already stored); without it they live in memory only.
   */
  stateFile?: string;
}

export interface LocalSmsWebhook {
  requestId: string;
  /** The API key of the account it is for (sent to that account's webhook URL). */
  account: string;
  type: string;
  body: string;
  headers: Record<string, string>;
  /** Status per attempt; null when the receiver could not be reached. */
  attempts: (number | null)[];
}

export interface RunningLocalSms {
  url: string;
  messages: LocalSmsMessage[];
  webhooks: LocalSmsWebhook[];
  now(): Date;
  advanceTime(ms: number): void;
  /**
   * Adds an account while running (a company that signed up), or for a known `apiKey` replaces its
   * webhook URL and lines; its secret and webhook secret must then be the ones it has.
   */
  putAccount(account: LocalSmsAccount): void;
  /** Of the account with `apiKey` (default: the first). */
  setWebhookUrl(url: string | undefined, apiKey?: string): void;
  /** Signs later webhooks with another secret (a rotation at the provider); of the account with `apiKey` (default: the first). */
  setWebhookSecret(secret: string, apiKey?: string): void;
  /** A customer texts one of our lines (of the account that has it); resolves once `sms.received` has been delivered. */
  simulateInbound(input: {
    from: string;
    to: string;
    body: string;
  }): Promise<{ providerMessageId: string; eventId: string }>;
  /** Sends an earlier webhook again, same request_id, timestamp and signature (default: the last). */
  resendWebhook(requestId?: string, times?: number): Promise<(number | null)[]>;
  /** The next `times` send requests fail with `status` (default 429 with `Retry-After: 30`). */
  failNext(times?: number, status?: number): void;
  flushWebhooks(): Promise<void>;
  close(): Promise<void>;
}

const digits = (v: unknown): string => String(v ?? '').replace(/\D/g, '');
const requestId = (): string => `01${randomBytes(16).toString('hex').toUpperCase().slice(0, 24)}`;

export async function startLocalSms(opts: LocalSmsOptions): Promise<RunningLocalSms> {
  const accounts = [opts, ...(opts.accounts ?? [])].map(checkedAccount);
  if (new Set(accounts.map((a) => a.apiKey)).size !== accounts.length)
    throw new Error('local SMS: each account needs its own apiKey');
  const first = accounts[0]!;
  const accountOf = (apiKey?: string): LocalSmsAccount => {
    const a = apiKey === undefined ? first : accounts.find((x) => x.apiKey === apiKey);
    if (!a) throw new Error(`local SMS: no account ${apiKey}`);
    return a;
  };
  let offsetMs = 0;
  const now = (): Date => new Date((opts.now ? opts.now().getTime() : Date.now()) + offsetMs);
  const messages: LocalSmsMessage[] = loadMessages(opts.stateFile, first.apiKey);
  const keep = (m: LocalSmsMessage) => {
    messages.push(m);
    saveMessages(opts.stateFile, messages);
  };
  const nextId = () => 100_000 + Math.max(0, ...messages.map((m) => m.id - 100_000)) + 1;
  const webhooks: LocalSmsWebhook[] = [];
  const failures: number[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const urlId = randomBytes(12).toString('hex');

  async function attempt(w: LocalSmsWebhook): Promise<number | null> {
    let status: number | null = null;
    const { webhookUrl } = accountOf(w.account);
    if (webhookUrl) {
      try {
        const res = await fetch(webhookUrl, {
          method: 'POST',
          headers: w.headers,
          body: w.body,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = null;
      }
    }
    w.attempts.push(status);
    return status;
  }

  async function emit(type: string, m: LocalSmsMessage): Promise<LocalSmsWebhook> {
    const { webhookUrl, webhookSecret } = accountOf(m.account);
    const url = webhookUrl ?? '';
    const timestamp = formatJustCallTimestamp(now());
    const id = requestId();
    const w: LocalSmsWebhook = {
      requestId: id,
      account: m.account,
      type,
      body: JSON.stringify({ request_id: id, webhook_url: url, url_id: urlId, type, data: smsObject(m) }),
      headers: {
        'content-type': 'application/json',
        'x-justcall-signature': signJustCall({ secret: webhookSecret, webhookUrl: url, type, timestamp }),
        'x-justcall-signature-version': 'v1',
        'x-justcall-request-timestamp': timestamp,
      },
      attempts: [],
    };
    webhooks.push(w);
    await attempt(w);
    return w;
  }

  const track = (p: Promise<unknown>): void => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const lineName = (a: LocalSmsAccount, n: string): string | undefined =>
    a.lines ? a.lines.find((l) => l.number === n)?.name : 'Local Line';

  const app = Fastify({ logger: false });
  /** The account whose key and secret the request carries. */
  const authorised = (req: FastifyRequest): LocalSmsAccount | undefined => {
    const h = req.headers.authorization ?? '';
    const pair = h.startsWith('Basic ') ? Buffer.from(h.slice(6), 'base64').toString('utf8') : h;
    return accounts.find((a) => pair === `${a.apiKey}:${a.apiSecret}`);
  };
  const error = (reply: FastifyReply, code: number, message: string) =>
    reply.code(code).send({ status: 'error', message });

  app.post('/v2.1/texts/new', async (req, reply) => {
    const account = authorised(req);
    if (!account) return error(reply, 401, 'Invalid API key or secret');
    const failure = failures.shift();
    if (failure !== undefined) {
      if (failure === 429) void reply.header('retry-after', '30');
      return error(reply, failure, failure === 429 ? 'Rate limit exceeded' : 'Internal server error');
    }
    const b = (req.body ?? {}) as Record<string, unknown>;
    const line = digits(b['justcall_number']);
    const name = lineName(account, line);
    if (!name) return error(reply, 400, 'justcall_number is not a number of this account');
    const contact = digits(b['contact_number']);
    if (contact.length < 8 || contact.length > 15) return error(reply, 400, 'contact_number must be in E.164 format');
    const text = typeof b['body'] === 'string' ? b['body'] : '';
    if (text.trim() === '' || text.length > 1600)
      return error(reply, 400, 'body is required (at most 1600 characters)');
    const m: LocalSmsMessage = {
      id: nextId(),
      account: account.apiKey,
      direction: 'Outgoing',
      line,
      lineName: name,
      contact,
      body: text,
      status: 'queued',
      createdAt: now(),
    };
    keep(m);
    const answer = { status: 'success', message: 'Text sent successfully', data: [smsObject(m)] };
    track(
      (async () => {
        m.status = 'sent';
        saveMessages(opts.stateFile, messages);
        await emit('sms.sent', m);
        m.status = 'delivered';
        saveMessages(opts.stateFile, messages);
        await emit('sms.delivered', m);
      })(),
    );
    return answer;
  });

  app.get('/v2.1/texts/:id', async (req, reply) => {
    const account = authorised(req);
    if (!account) return error(reply, 401, 'Invalid API key or secret');
    // Another account's text is not found, as at the provider.
    const m = messages.find((x) => String(x.id) === (req.params as { id: string }).id && x.account === account.apiKey);
    return m ? { status: 'success', data: [smsObject(m)] } : error(reply, 404, 'Text not found');
  });

  const address = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });

  return {
    url: address,
    messages,
    webhooks,
    now,
    advanceTime: (ms) => void (offsetMs += ms),
    putAccount: (a) => putAccount(accounts, a),
    setWebhookUrl: (url, apiKey) => {
      const a = accountOf(apiKey);
      if (url) a.webhookUrl = url;
      else delete a.webhookUrl;
    },
    setWebhookSecret: (secret, apiKey) => void (accountOf(apiKey).webhookSecret = secret),
    async simulateInbound(input) {
      const line = digits(input.to);
      const account = accounts.find((a) => a.lines?.some((l) => l.number === line)) ?? first;
      const m: LocalSmsMessage = {
        id: nextId(),
        account: account.apiKey,
        direction: 'Incoming',
        line,
        lineName: lineName(account, line) ?? 'Unknown line',
        contact: digits(input.from),
        body: input.body,
        status: 'received',
        createdAt: now(),
      };
      keep(m);
      const w = await emit('sms.received', m);
      return { providerMessageId: String(m.id), eventId: w.requestId };
    },
    async resendWebhook(id, times = 1) {
      const w = id === undefined ? webhooks.at(-1) : webhooks.find((x) => x.requestId === id);
      if (!w) throw new Error(`local SMS: no webhook ${id ?? ''}`);
      const out: (number | null)[] = [];
      for (let i = 0; i < times; i++) out.push(await attempt(w));
      return out;
    },
    failNext: (times = 1, status = 429) => void failures.push(...Array<number>(times).fill(status)),
    async flushWebhooks() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async close() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await app.close();
    },
  };
}
