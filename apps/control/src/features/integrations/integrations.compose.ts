/**
 * The owner's console's integrations, built over the integrations package's services with the
 * provider adapters the configuration names (the local stand-ins under `npm start`).
 */
import type { Db } from '@platform/db';
import type { RateLimiter } from '@platform/http-kit';
import {
  ChatNotifierService,
  chatOrigins,
  createAccountingServices,
  type IntegrationSettingsService,
  IntegrationsOverview,
  SmsService,
} from '@platform/integrations';
import type { Clock } from '@platform/kernel';
import { createGoogleChatPoster, justCallSmsAdapters, xeroAccountingAdaptersOf } from '@platform/providers';

import type { ControlConfig } from '../../control.config.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { ControlIntegrations } from './integrations.service.js';
import { ControlTaxMapping } from './tax-mapping.service.js';

export function composeIntegrations(
  config: ControlConfig,
  db: Db,
  parts: {
    settings: IntegrationSettingsService;
    audit: AuditLog;
    limiter: RateLimiter;
    clock: Clock;
    erps: TenantErps;
  },
): ControlIntegrations {
  const { settings, limiter, clock } = parts;
  const accounting = createAccountingServices(db, settings, xeroAccountingAdaptersOf(config), { clock, limiter });
  return new ControlIntegrations(
    db,
    {
      settings,
      overview: new IntegrationsOverview(db, settings),
      sms: new SmsService(db, settings, justCallSmsAdapters({ baseUrl: config.SMS_API_URL })),
      chat: new ChatNotifierService(
        settings,
        createGoogleChatPoster({ allowedOrigins: chatOrigins(config.CHAT_ALLOWED_ORIGINS) }),
        limiter,
      ),
      accounting,
    },
    parts.audit,
    new ControlTaxMapping(db, parts.erps, accounting.taxMapping, parts.audit),
  );
}
