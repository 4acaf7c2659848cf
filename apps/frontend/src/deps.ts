/**
 * Composition root of the frontend: the only place that constructs its parts (host → tenant,
 * branding, bundles). Nothing here listens: frontend.server.ts does.
 */
import type { Db } from '@platform/db';

import { buildBundles, type Bundles } from './assets/assets.js';
import { BrandingService } from './features/tenancy/branding.service.js';
import { DbHostTenants, type HostTenants } from './features/tenancy/host-tenant.resolver.js';
import type { FrontendConfig } from './frontend.config.js';

export interface FrontendDeps {
  config: FrontendConfig;
  tenants: HostTenants;
  branding: BrandingService;
  bundles: Bundles;
}

export async function composeFrontend(config: FrontendConfig, db: Db): Promise<FrontendDeps> {
  const defaultHosts = config.DEFAULT_TENANT_HOSTS.split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  return {
    config,
    tenants: new DbHostTenants(db, config.TENANTS_HOST, defaultHosts),
    branding: new BrandingService(db),
    bundles: await buildBundles(),
  };
}
