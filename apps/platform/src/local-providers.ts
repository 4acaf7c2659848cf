/**
 * `npm start` on embedded defaults runs LOCAL stand-ins of the outside providers (announced at
 * start, like the bot check's), so a new user can connect accounting, send and receive SMS, see
 * team-chat messages and read the platform's email with nothing leaving the machine: JustCall-style
 * SMS, Xero-style accounting, a Google Chat webhook receiver and an SMTP mailbox (packages/providers,
 * `*\/local`; the mailbox keeps its mail in DATA_DIR/local-mail.json, mode 0600). Their credentials are made
 * once and kept in DATA_DIR/local-providers.json (mode 0600), and the default tenant's integration
 * settings are pointed at them unless the operator configured real ones. A small loopback console
 * shows what they received, the mail at /mail, and lets a "customer" text in (docs/integrations.md
 * "Local stand-ins").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { randomToken } from '@platform/kernel';
import {
  type RunningLocalAccounting,
  type RunningLocalChat,
  type RunningLocalMail,
  type RunningLocalSms,
  startLocalAccounting,
  startLocalChat,
  startLocalMail,
  startLocalSms,
} from '@platform/providers/local';

import { serveConsole } from './local-providers.console.js';
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
  /** The SMTP mailbox every email goes to (EMAIL_SMTP_URL points at it). */
  mail: RunningLocalMail | undefined;
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
  if (!want.sms && !want.accounting && !want.chat && !want.mail) return undefined;
  const credentials = credentialsIn(c.DATA_DIR);
  const host = '127.0.0.1';
  const sms = want.sms
    ? await startLocalSms({ ...credentials.sms, host, port: 0, stateFile: join(c.DATA_DIR, 'local-sms.json') })
    : undefined;
  const accounting = want.accounting
    ? await startLocalAccounting({
        ...credentials.accounting,
        redirectUris: [`http://localhost:${c.ERP_PORT}/acct/callback`, `http://127.0.0.1:${c.ERP_PORT}/acct/callback`],
        host,
        port: 0,
      })
    : undefined;
  const chat = want.chat ? await startLocalChat({ host, port: 0 }) : undefined;
  const mail = want.mail
    ? await startLocalMail({ host, port: 0, storeFile: join(c.DATA_DIR, 'local-mail.json') })
    : undefined;
  const env: Record<string, string> = {};
  if (mail) env.EMAIL_SMTP_URL = mail.url;
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
    mail,
    env,
    async bind(erpUrl) {
      sms?.setWebhookUrl(`${erpUrl}/sms/webhook/sms`);
      accounting?.setWebhookUrl(`${erpUrl}/acct/webhook`);
      console_ = createServer((req, res) => void serveConsole(req, res, { sms, chat, mail, accounting }));
      // A listen failure rejects (start-up names the busy port) instead of crashing on an unhandled 'error'.
      await new Promise<void>((resolve, reject) => {
        console_!.once('error', reject);
        console_!.listen(c.LOCAL_PROVIDERS_PORT, host, () => {
          console_!.off('error', reject);
          resolve();
        });
      });
      return `http://${host}:${(console_.address() as AddressInfo).port}`;
    },
    async close() {
      await new Promise<void>((r) => (console_ ? console_.close(() => r()) : r()));
      await Promise.all([sms?.close(), accounting?.close(), chat?.close(), mail?.close()]);
    },
  };
}
