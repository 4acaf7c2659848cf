/**
 * Points the default tenant's integration settings at the local stand-ins (local-providers.ts),
 * never over settings an operator made for real providers: SMS only when unset or made with the
 * local credentials, accounting only when unset, team chat when unset (every flag on) or aimed at
 * a loopback receiver (then only its URL, which changes with each start: the flags stay the user's).
 */
import type { WorkerConfig } from '@platform/app-worker/config.js';
import { secretBoxFrom } from '@platform/app-worker/secrets.js';
import type { Db } from '@platform/db';
import type { createLogger } from '@platform/http-kit';
import {
  accountingConnectionSchema,
  chatConfigSchema,
  chatOrigins,
  IntegrationSettingsService,
  smsConfigSchema,
  smsLineSchema,
} from '@platform/integrations';
import { isAppError } from '@platform/kernel';
import { normalizeSmsPhone } from '@platform/providers';
import { findDefaultTenant } from '@platform/tenancy';

import type { LocalProviders } from './local-providers.js';

export const LOCAL_SMS_LINE = '+1 303 555 0100';

const missing = async <T>(p: Promise<T>): Promise<T | undefined> =>
  p.catch((e: unknown) => {
    if (isAppError(e) && e.code === 'NOT_FOUND') return undefined;
    throw e;
  });

export async function useLocalProviders(
  settings: IntegrationSettingsService,
  db: Db,
  local: LocalProviders,
  erpUrl: string,
  erpPort: number,
): Promise<string[]> {
  const tenant = (await findDefaultTenant(db))?.id;
  if (!tenant) return [];
  const done: string[] = [];
  const c = local.credentials;
  if (local.sms) {
    const current = await settings.smsSecrets(tenant);
    if (!current || current.apiKey === c.sms.apiKey) {
      await settings.setSmsConfig(
        tenant,
        smsConfigSchema.parse({
          api_key: c.sms.apiKey,
          api_secret: c.sms.apiSecret,
          webhook_secret: c.sms.webhookSecret,
          webhook_base_url: erpUrl,
        }),
      );
      const shown = (await settings.showSmsConfig(tenant)) as { lines?: unknown[] };
      if (!shown.lines?.length)
        await settings.addSmsLine(
          tenant,
          smsLineSchema.parse({
            name: 'Local Sales Line',
            phone_number: LOCAL_SMS_LINE,
            line_type: 'sales',
            is_default: true,
          }),
        );
      done.push('sms');
    }
  }
  if (local.accounting && !(await missing(settings.showAccountingConnection(tenant)))) {
    await settings.setAccountingConnection(
      tenant,
      accountingConnectionSchema.parse({
        name: 'Local accounting stand-in',
        client_id: c.accounting.clientId,
        client_secret: c.accounting.clientSecret,
        redirect_uri: `http://localhost:${erpPort}/acct/callback`,
        webhook_key: c.accounting.webhookKey,
      }),
    );
    done.push('accounting');
  }
  if (local.chat) {
    const current = await settings.chatConfig(tenant);
    if (!current) {
      const all = { enable_fsm: true, enable_sales: true, enable_invoice: true, enable_po: true };
      await settings.setChatConfig(tenant, chatConfigSchema.parse({ webhook_url: local.chat.webhookUrl(), ...all }));
      done.push('chat');
    } else if (/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(current.webhookUrl)) {
      // The stand-in's URL changes with each start; the flags are the user's and stay as they were set.
      await settings.setChatConfig(tenant, chatConfigSchema.parse({ webhook_url: local.chat.webhookUrl() }));
      done.push('chat');
    }
  }
  return done;
}

/** Points the default tenant's integration settings at the stand-ins, starts their console, says so. */
export async function pointAtLocalProviders(
  local: LocalProviders,
  erpUrl: string,
  db: Db,
  workerConfig: WorkerConfig,
  logger: ReturnType<typeof createLogger>,
): Promise<string> {
  const consoleUrl = await local.bind(erpUrl);
  const settings = new IntegrationSettingsService(
    db,
    secretBoxFrom(workerConfig),
    (raw) => normalizeSmsPhone(raw, workerConfig.SMS_DEFAULT_REGION),
    chatOrigins(workerConfig.CHAT_ALLOWED_ORIGINS),
  );
  const configured = await useLocalProviders(
    settings,
    db,
    local,
    erpUrl,
    new URL(erpUrl).port ? Number(new URL(erpUrl).port) : 80,
  );
  // The start-up block says this in plain text; the JSON line is for LOG_LEVEL=debug.
  logger.debug(
    {
      sms: local.sms?.url,
      accounting: local.accounting?.url,
      chat: local.chat?.url,
      mail: local.mail?.url,
      console: consoleUrl,
      settings_pointed_at_them: configured,
    },
    `providers: LOCAL stand-ins for SMS, accounting, team chat and email are in use (embedded mode only; nothing leaves this machine). Console: ${consoleUrl}`,
  );
  return consoleUrl;
}
