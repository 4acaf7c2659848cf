/**
 * `npm start` on embedded defaults runs LOCAL stand-ins of the outside providers (announced at
 * start, like the bot check's), so a new user can connect accounting, send and receive SMS, see
 * team-chat messages and read the platform's email with nothing leaving the machine: JustCall-style
 * SMS, Xero-style accounting, a Google Chat webhook receiver and an SMTP mailbox (packages/providers,
 * `*\/local`; the mailbox keeps its mail in DATA_DIR/local-mail.json, mode 0600). Their credentials are made
 * once and kept in DATA_DIR/local-providers.json (mode 0600): the default tenant's are the stand-ins'
 * first account, every other tenant gets an account and app of its own (`registerTenant`), whose
 * notices go to that tenant's webhook URLs. Each tenant's integration settings are pointed at its own
 * unless the operator configured real ones (local-settings.ts). A small loopback console shows what
 * they received, the mail at /mail, the accounting controls at /acct, and lets a "customer" text in
 * (docs/integrations.md "Local stand-ins"). A Stripe stand-in takes the platform's payments (one
 * platform key; each tenant makes its own connected account through the API, docs/payments.md): its
 * URL, key and webhook secret are put in STRIPE_API_BASE / STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET;
 * the control plane's payments receiver (`/webhooks/payments`) is registered on it by platform.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { smsWebhookPath } from '@platform/integrations';
import { Periodic, randomToken } from '@platform/kernel';
import {
  type RunningLocalAccounting,
  type RunningLocalChat,
  type RunningLocalMail,
  type RunningLocalSms,
  type RunningLocalStripe,
  startLocalAccounting,
  startLocalChat,
  startLocalMail,
  startLocalSms,
  startLocalStripe,
} from '@platform/providers/local';

import { serveConsole } from './local-providers.console.js';
import { type PlatformConfig, wantsLocalProviders } from './platform.config.js';

/** The default tenant's line at the SMS stand-in; other tenants get the next numbers. */
export const LOCAL_SMS_LINE = '+1 303 555 0100';

export interface LocalAccounts {
  sms: { apiKey: string; apiSecret: string; webhookSecret: string };
  accounting: { clientId: string; clientSecret: string; webhookKey: string };
}

/** A tenant's own account at each stand-in, and its line at the SMS one. */
export interface LocalTenantAccounts extends LocalAccounts {
  line: string;
}

/** The default tenant's accounts (the stand-ins' first), and every other tenant's by slug. */
export interface LocalCredentials extends LocalAccounts {
  tenants?: Record<string, LocalTenantAccounts>;
  /** The platform's key at the Stripe stand-in and the signing secret of its webhook endpoint. */
  stripe?: { secretKey: string; webhookSecret: string };
}

export interface LocalProviders {
  credentials: LocalCredentials;
  sms: RunningLocalSms | undefined;
  accounting: RunningLocalAccounting | undefined;
  chat: RunningLocalChat | undefined;
  /** The SMTP mailbox every email goes to (EMAIL_SMTP_URL points at it). */
  mail: RunningLocalMail | undefined;
  payments: RunningLocalStripe | undefined;
  /** Environment for the services: provider URLs pointing at the stand-ins. */
  env: Record<string, string>;
  /** Tells the stand-ins where the ERP host's webhooks are, and starts the console. */
  bind(erpUrl: string): Promise<string>;
  /**
   * The accounts of a tenant other than the default: made at its first start and kept, registered at
   * the stand-ins (once per start) with its own webhook URLs on the ERP host, its SMS account taking its
   * own line and `lines` (the lines in its settings). Call after `bind`.
   */
  registerTenant(tenant: { slug: string; name: string }, lines?: string[]): LocalTenantAccounts;
  /**
   * Registers `path` on `origin` (default: the ERP host, known after `bind`) as the Stripe stand-in's
   * Connect webhook endpoint, signed with STRIPE_WEBHOOK_SECRET. False without the stand-in.
   */
  registerStripeWebhook(path: string, origin?: string): boolean;
  /** Runs `pass` every `everyMs` until `close` (tenants created while the platform runs). */
  every(everyMs: number, pass: () => Promise<unknown>, onError: (e: unknown) => void): void;
  close(): Promise<void>;
}

const newAccounts = (): LocalAccounts => ({
  sms: { apiKey: `local-${randomToken(8)}`, apiSecret: randomToken(24), webhookSecret: randomToken(24) },
  accounting: { clientId: `local-${randomToken(12)}`, clientSecret: randomToken(24), webhookKey: randomToken(32) },
});
const saveCredentials = (file: string, c: LocalCredentials): void =>
  writeFileSync(file, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });

function credentialsIn(file: string): LocalCredentials {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalCredentials;
  const made: LocalCredentials = newAccounts();
  saveCredentials(file, made);
  return made;
}

/** `+1 303 555 0100` is the default tenant's; the n-th other tenant gets 0100 + n. */
const nthLine = (n: number): string => `+1 303 555 ${String(100 + n).padStart(4, '0')}`;
const digits = (phone: string): string => phone.replace(/\D/g, '');

export async function startLocalProviders(c: PlatformConfig): Promise<LocalProviders | undefined> {
  const want = wantsLocalProviders(c);
  if (!want.sms && !want.accounting && !want.chat && !want.mail && !want.payments) return undefined;
  const credentialsFile = join(c.DATA_DIR, 'local-providers.json');
  const credentials = credentialsIn(credentialsFile);
  if (want.payments && !credentials.stripe) {
    // Files written before the Stripe stand-in existed get its credentials on their next start.
    credentials.stripe = { secretKey: `sk_test_${randomToken(24)}`, webhookSecret: `whsec_${randomToken(32)}` };
    saveCredentials(credentialsFile, credentials);
  }
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
  const payments =
    want.payments && credentials.stripe
      ? await startLocalStripe({ secretKey: credentials.stripe.secretKey, host, port: 0 })
      : undefined;
  const env: Record<string, string> = {};
  if (payments && credentials.stripe)
    Object.assign(env, {
      STRIPE_API_BASE: payments.url,
      STRIPE_SECRET_KEY: credentials.stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: credentials.stripe.webhookSecret,
    });
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
  let erp = '';
  const registered = new Set<string>();
  const periodic: Periodic[] = [];
  return {
    credentials,
    sms,
    accounting,
    chat,
    mail,
    payments,
    env,
    async bind(erpUrl) {
      erp = erpUrl;
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
    registerTenant(tenant, lines = []) {
      const all = (credentials.tenants ??= {});
      let mine = all[tenant.slug];
      if (!mine) {
        mine = { ...newAccounts(), line: nthLine(Object.keys(all).length + 1) };
        all[tenant.slug] = mine;
        saveCredentials(credentialsFile, credentials);
      }
      const smsLines = [...new Set([mine.line, ...lines].map(digits))].map((number) => ({
        number,
        name: 'Local line',
      }));
      sms?.putAccount({ ...mine.sms, webhookUrl: `${erp}${smsWebhookPath(tenant.slug)}`, lines: smsLines });
      if (accounting && !registered.has(tenant.slug)) {
        const port = new URL(erp).port;
        accounting.addApp({
          ...mine.accounting,
          redirectUris: [`http://localhost:${port}/acct/callback`, `http://127.0.0.1:${port}/acct/callback`],
          webhookUrl: `${erp}/acct/webhook/${encodeURIComponent(tenant.slug)}`,
          tenants: [{ tenantName: tenant.name }],
        });
      }
      registered.add(tenant.slug);
      return mine;
    },
    registerStripeWebhook(path, origin = erp) {
      if (!payments || !credentials.stripe) return false;
      payments.addWebhookEndpoint(`${origin}${path}`, { connect: true, secret: credentials.stripe.webhookSecret });
      return true;
    },
    every(everyMs, pass, onError) {
      const p = new Periodic({ everyMs, pass, onError });
      periodic.push(p);
      p.start();
    },
    async close() {
      await Promise.all(periodic.map((p) => p.stop()));
      await new Promise<void>((r) => (console_ ? console_.close(() => r()) : r()));
      await Promise.all([sms?.close(), accounting?.close(), chat?.close(), mail?.close(), payments?.close()]);
    },
  };
}
