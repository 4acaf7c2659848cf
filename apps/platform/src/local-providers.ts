/**
 * `npm start` on embedded defaults runs LOCAL stand-ins of the outside providers (announced at
 * start, like the bot check's), so a new user can connect accounting, send and receive SMS and see
 * team-chat messages with nothing leaving the machine: JustCall-style SMS, Xero-style accounting
 * and a Google Chat webhook receiver (packages/providers, `*\/local`). Their credentials are made
 * once and kept in DATA_DIR/local-providers.json (mode 0600), and the default tenant's integration
 * settings are pointed at them unless the operator configured real ones. A small loopback console
 * shows what they received and lets a "customer" text in (docs/integrations.md "Local stand-ins").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { randomToken } from '@platform/kernel';
import {
  type RunningLocalAccounting,
  type RunningLocalChat,
  type RunningLocalSms,
  startLocalAccounting,
  startLocalChat,
  startLocalSms,
} from '@platform/providers/local';

import { type PlatformConfig, wantsLocalProviders } from './platform.config.js';

export interface LocalCredentials {
  sms: { apiKey: string; apiSecret: string; webhookSecret: string };
  accounting: { clientId: string; clientSecret: string; webhookKey: string };
}

export interface LocalProviders {
  credentials: LocalCredentials;
  sms: RunningLocalSms | undefined;
  accounting: RunningLocalAccounting | undefined;
  chat: RunningLocalChat | undefined;
  /** Environment for the services: provider URLs pointing at the stand-ins. */
  env: Record<string, string>;
  /** Tells the stand-ins where the ERP host's webhooks are, and starts the console. */
  bind(erpUrl: string): Promise<string>;
  close(): Promise<void>;
}

function credentialsIn(dataDir: string): LocalCredentials {
  const file = join(dataDir, 'local-providers.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalCredentials;
  const made: LocalCredentials = {
    sms: { apiKey: `local-${randomToken(8)}`, apiSecret: randomToken(24), webhookSecret: randomToken(24) },
    accounting: { clientId: `local-${randomToken(12)}`, clientSecret: randomToken(24), webhookKey: randomToken(32) },
  };
  writeFileSync(file, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
  return made;
}

export async function startLocalProviders(c: PlatformConfig): Promise<LocalProviders | undefined> {
  const want = wantsLocalProviders(c);
  if (!want.sms && !want.accounting && !want.chat) return undefined;
  const credentials = credentialsIn(c.DATA_DIR);
  const host = '127.0.0.1';
  const sms = want.sms ? await startLocalSms({ ...credentials.sms, host, port: 0 }) : undefined;
  const accounting = want.accounting
    ? await startLocalAccounting({
        ...credentials.accounting,
        redirectUris: [`http://localhost:${c.ERP_PORT}/acct/callback`, `http://127.0.0.1:${c.ERP_PORT}/acct/callback`],
        host,
        port: 0,
      })
    : undefined;
  const chat = want.chat ? await startLocalChat({ host, port: 0 }) : undefined;
  const env: Record<string, string> = {};
  if (sms) env.SMS_API_URL = sms.url;
  if (accounting)
    Object.assign(env, {
      ACCT_LOGIN_URL: accounting.url,
      ACCT_IDENTITY_URL: accounting.url,
      ACCT_API_URL: accounting.url,
    });
  if (chat) env.CHAT_ALLOWED_ORIGINS = `${c.CHAT_ALLOWED_ORIGINS},${new URL(chat.url).origin}`;
  let console_: Server | undefined;
  return {
    credentials,
    sms,
    accounting,
    chat,
    env,
    async bind(erpUrl) {
      sms?.setWebhookUrl(`${erpUrl}/sms/webhook/sms`);
      accounting?.setWebhookUrl(`${erpUrl}/acct/webhook`);
      console_ = createServer((req, res) => void serveConsole(req, res, { sms, chat }));
      await new Promise<void>((r) => console_!.listen(c.LOCAL_PROVIDERS_PORT, host, r));
      return `http://${host}:${(console_.address() as AddressInfo).port}`;
    },
    async close() {
      await new Promise<void>((r) => (console_ ? console_.close(() => r()) : r()));
      await Promise.all([sms?.close(), accounting?.close(), chat?.close()]);
    },
  };
}

/** GET / : what the stand-ins received; POST /sms/inbound {from, to, body}: a customer texts a line. */
async function serveConsole(
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
  p: { sms?: RunningLocalSms; chat?: RunningLocalChat },
) {
  const send = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body, null, 2)}\n`);
  try {
    if (req.method === 'GET' && (req.url === '/' || req.url === '/messages')) {
      return send(200, {
        sms: (p.sms?.messages ?? []).map((m) => ({
          id: m.id,
          direction: m.direction,
          line: m.line,
          contact: m.contact,
          body: m.body,
          status: m.status,
          at: m.createdAt,
        })),
        chat: (p.chat?.messages ?? []).map((m) => ({
          space: m.space,
          text: m.text,
          thread: m.threadKey,
          at: m.createTime,
        })),
      });
    }
    if (req.method === 'POST' && req.url === '/sms/inbound' && p.sms) {
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      const b = JSON.parse(raw || '{}') as { from?: unknown; to?: unknown; body?: unknown };
      if (typeof b.from !== 'string' || typeof b.to !== 'string' || typeof b.body !== 'string' || !b.body) {
        return send(422, { error: 'from, to (one of our SMS lines) and body are required strings' });
      }
      return send(202, await p.sms.simulateInbound({ from: b.from, to: b.to, body: b.body }));
    }
    send(404, { error: 'GET / lists messages; POST /sms/inbound {from, to, body} texts one of our lines' });
  } catch (e) {
    send(400, { error: (e as Error).message });
  }
}
