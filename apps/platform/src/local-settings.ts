/**
 * Points each tenant's integration settings at its own accounts at the local stand-ins
 * (local-providers.ts), never over settings an operator made for real providers: SMS only when unset
 * or made with that tenant's local credentials, accounting only when unset, team chat when unset
 * (every flag on) or aimed at a loopback receiver (then only its URL, which changes with each start:
 * the flags stay the user's). The default tenant uses the default webhook URLs, every other tenant
 * its own (with its slug). Tenants created while the platform runs are pointed within seconds.
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
import { listTenants, type TenantRow } from '@platform/tenancy';

import { LOCAL_SMS_LINE, type LocalProviders } from './local-providers.js';

export { LOCAL_SMS_LINE } from './local-providers.js';

/** How often tenants created while running are looked for. */
export const NEW_TENANTS_EVERY_MS = 3_000;

const missing = async <T>(p: Promise<T>): Promise<T | undefined> =>
  p.catch((e: unknown) => {
    if (isAppError(e) && e.code === 'NOT_FOUND') return undefined;
    throw e;
  });

const isLoopback = (url: string): boolean => /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url);

/** The lines in a tenant's SMS settings (shown, E.164). */
async function linesOf(settings: IntegrationSettingsService, tenant: string): Promise<string[]> {
  const shown = (await missing(settings.showSmsConfig(tenant))) as { lines?: { phone_number?: string }[] } | undefined;
  return (shown?.lines ?? []).map((l) => l.phone_number ?? '').filter(Boolean);
}

/** Points one tenant at its stand-in accounts; what was pointed (sms, accounting, chat). */
async function pointTenant(
  settings: IntegrationSettingsService,
  tenant: TenantRow,
  local: LocalProviders,
  erpUrl: string,
  erpPort: number,
): Promise<string[]> {
  const id = tenant.id;
  const mine = tenant.is_default
    ? { ...local.credentials, line: LOCAL_SMS_LINE }
    : local.registerTenant(tenant, await linesOf(settings, id));
  const done: string[] = [];
  if (local.sms) {
    const current = await settings.smsSecrets(id);
    if (!current || current.apiKey === mine.sms.apiKey) {
      await settings.setSmsConfig(
        id,
        smsConfigSchema.parse({
          api_key: mine.sms.apiKey,
          api_secret: mine.sms.apiSecret,
          webhook_secret: mine.sms.webhookSecret,
          webhook_base_url: erpUrl,
        }),
      );
      if (!(await linesOf(settings, id)).length)
        await settings.addSmsLine(
          id,
          smsLineSchema.parse({
            name: 'Local Sales Line',
            phone_number: mine.line,
            line_type: 'sales',
            is_default: true,
          }),
        );
      done.push('sms');
    }
  }
  if (local.accounting && !(await missing(settings.showAccountingConnection(id)))) {
    await settings.setAccountingConnection(
      id,
      accountingConnectionSchema.parse({
        name: 'Local accounting stand-in',
        client_id: mine.accounting.clientId,
        client_secret: mine.accounting.clientSecret,
        redirect_uri: `http://localhost:${erpPort}/acct/callback`,
        webhook_key: mine.accounting.webhookKey,
      }),
    );
    done.push('accounting');
  }
  if (local.chat) {
    // Each tenant its own space at the receiver, so their messages are told apart.
    const url = local.chat.webhookUrl(
      tenant.is_default ? undefined : `Local${tenant.slug.replace(/[^A-Za-z0-9]/g, '')}`,
    );
    const current = await settings.chatConfig(id);
    if (!current) {
      const all = { enable_fsm: true, enable_sales: true, enable_invoice: true, enable_po: true };
      await settings.setChatConfig(id, chatConfigSchema.parse({ webhook_url: url, ...all }));
      done.push('chat');
    } else if (isLoopback(current.webhookUrl)) {
      // The stand-in's URL changes with each start; the flags are the user's and stay as they were set.
      await settings.setChatConfig(id, chatConfigSchema.parse({ webhook_url: url }));
      done.push('chat');
    }
  }
  return done;
}

/**
 * Points every active tenant not in `pointed` (slugs) at its stand-in accounts and adds it there;
 * what was pointed, by slug. Tenants still being set up (or deleted) are left for a later pass. With
 * `onFailure`, one tenant that cannot be pointed (a setting that no longer opens) is reported and
 * left until the next start instead of stopping the others (or `npm start`).
 */
export async function useLocalProviders(
  settings: IntegrationSettingsService,
  db: Db,
  local: LocalProviders,
  erpUrl: string,
  erpPort: number,
  opts: { pointed?: Set<string>; onFailure?: (slug: string, err: unknown) => void } = {},
): Promise<Record<string, string[]>> {
  const pointed = opts.pointed ?? new Set<string>();
  const out: Record<string, string[]> = {};
  for (const tenant of await listTenants(db)) {
    if (pointed.has(tenant.slug) || (tenant.status !== 'active' && tenant.status !== 'suspended')) continue;
    try {
      out[tenant.slug] = await pointTenant(settings, tenant, local, erpUrl, erpPort);
    } catch (e) {
      if (!opts.onFailure) throw e;
      opts.onFailure(tenant.slug, e);
    }
    pointed.add(tenant.slug);
  }
  return out;
}

/** Points every tenant's integration settings at the stand-ins (and later ones as they come), starts their console, says so. */
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
  const erpPort = new URL(erpUrl).port ? Number(new URL(erpUrl).port) : 80;
  const once = {
    pointed: new Set<string>(),
    onFailure: (slug: string, err: unknown) =>
      logger.warn(
        { err, tenant: slug },
        'providers: this tenant is not pointed at the LOCAL stand-ins until the next start',
      ),
  };
  const configured = await useLocalProviders(settings, db, local, erpUrl, erpPort, once);
  local.every(
    NEW_TENANTS_EVERY_MS,
    async () => {
      const later = await useLocalProviders(settings, db, local, erpUrl, erpPort, once);
      if (Object.keys(later).length)
        logger.info(
          { settings_pointed_at_them: later },
          'providers: new tenants use their own LOCAL stand-in accounts',
        );
    },
    (err) => logger.warn({ err }, 'providers: looking for new tenants for the LOCAL stand-ins failed; trying again'),
  );
  // The start-up block says this in plain text; the JSON line is for LOG_LEVEL=debug.
  logger.debug(
    {
      sms: local.sms?.url,
      accounting: local.accounting?.url,
      chat: local.chat?.url,
      mail: local.mail?.url,
      payments: local.payments?.url,
      console: consoleUrl,
      settings_pointed_at_them: configured,
    },
    `providers: LOCAL stand-ins for SMS, accounting, team chat and email are in use (embedded mode only; nothing leaves this machine). Console: ${consoleUrl}`,
  );
  return consoleUrl;
}
