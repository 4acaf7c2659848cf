/**
 * The owner's console's services (docs/control-plane.md): company settings and branding images,
 * domains, outbound webhooks, API keys, the audit log's reader and the first-run checklist that reads
 * them all. Built by deps.ts; kept here so the composition root stays readable.
 */
import { composeApiKeys } from '@platform/credentials';
import { type Db, withTenant } from '@platform/db';
import type { Clock } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';
import { primaryHost, type TenantHostResolver } from '@platform/tenancy';

import type { ControlConfig } from '../../control.config.js';
import { displayNames } from '../accounts/team.repo.js';
import { ConsoleApiKeys } from '../api-keys/api-keys.service.js';
import type { AuditLog } from '../audit/audit-log.js';
import { AuditReader } from '../audit/audit-reader.js';
import { DomainsService } from '../domains/domains.service.js';
import type { ControlIntegrations } from '../integrations/integrations.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { BrandingImagesService } from '../tenants/branding-images.service.js';
import type { TenantPublicOrigins } from '../tenants/tenant-public-origins.js';
import { TenantSettingsService } from '../tenants/tenant-settings.service.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { composeWebsite, type WebsiteParts } from '../website/website.compose.js';
import { SetupChecklistService } from './setup-checklist.service.js';

export interface ConsoleParts {
  db: Db;
  clock: Clock;
  plans: PlanLimits;
  audit: AuditLog;
  box: ConstructorParameters<typeof WebhooksService>[1];
  resolver: TenantHostResolver;
  objects: ObjectStore;
  integrations: ControlIntegrations;
  /** The website's catalogue sources (docs/website.md). */
  grids: WebsiteParts['grids'];
  branches: WebsiteParts['branches'];
  /** Where tenant hosts are served (shared: `npm start` tells it the landing's and frontend's ports). */
  origins: TenantPublicOrigins;
}

export type ConsoleServices = ReturnType<typeof composeConsole>;

export function composeConsole(config: ControlConfig, p: ConsoleParts) {
  const { db, clock, plans, audit } = p;
  const domains = new DomainsService(db, audit, clock, p.resolver, {
    tenantsHost: config.TENANTS_HOST,
    platformHosts: [
      config.ERP_DOMAIN,
      config.LANDING_DOMAIN,
      config.PWA_DOMAIN,
      config.DOCS_DOMAIN,
      ...(config.RESERVED_DOMAINS ?? []),
    ],
    verifyDeadlineMs: config.DOMAIN_VERIFY_DEADLINE_H * 3_600_000,
  });
  const settings = new TenantSettingsService(db, plans, audit);
  const onboarding = new SetupChecklistService(db, {
    settings,
    plans,
    domains,
    audit,
    now: () => clock.now(),
    integrations: async (tenantId) => {
      const v = await p.integrations.view(tenantId);
      return v.accounting.state === 'connected' || v.sms.configured || v.chat.configured;
    },
  });
  return {
    domains,
    settings,
    onboarding,
    webhooks: new WebhooksService(db, p.box, plans, audit, { allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK === 'on' }),
    auditReader: new AuditReader(db, displayNames),
    apiKeys: new ConsoleApiKeys(db, plans, audit, (tenantId) => composeApiKeys(db, tenantId).keys),
    brandingImages: new BrandingImagesService(db, plans, settings, p.objects),
    website: composeWebsite({
      ...{ db, box: p.box, objects: p.objects, audit, grids: p.grids, branches: p.branches },
      currency: async (tenantId) => (await settings.get(tenantId)).currency,
      siteUrl: async (tenantId) => {
        const host = await withTenant(db, tenantId, (tx) => primaryHost(tx, tenantId));
        return p.origins.siteOrigin(host.domain ?? `${host.slug}.${config.TENANTS_HOST}`);
      },
    }),
  };
}
