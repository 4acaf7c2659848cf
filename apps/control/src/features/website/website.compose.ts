/**
 * The console's Website area, built by composeConsole: the website service over the price grids and
 * branches (read through their own services) and subscribed to their changes, so the site's products
 * and service areas follow the tenant's records without SQL on their tables from here.
 */
import type { Db } from '@platform/db';
import type { SecretBox } from '@platform/secrets';
import type { ObjectStore } from '@platform/storage';

import type { AuditLog } from '../audit/audit-log.js';
import type { BranchesService } from '../branches/branches.service.js';
import type { PriceGridsService } from '../sales/price-grids.service.js';
import { ControlWebsite } from './website.service.js';

export interface WebsiteParts {
  db: Db;
  box: SecretBox;
  objects: ObjectStore;
  audit: AuditLog;
  grids: Pick<PriceGridsService, 'list' | 'onChange'>;
  branches: Pick<BranchesService, 'list' | 'onChange'>;
  currency: (tenantId: string) => Promise<string>;
  siteUrl: (tenantId: string) => Promise<string>;
}

export function composeWebsite(p: WebsiteParts): ControlWebsite {
  const website = new ControlWebsite(p.db, p.box, p.objects, p.audit, {
    grids: (tenantId) => p.grids.list(tenantId),
    branches: (tenantId) => p.branches.list(tenantId),
    currency: p.currency,
    siteUrl: p.siteUrl,
  });
  const refresh = (tenantId: string) => website.refreshCatalog(tenantId);
  p.grids.onChange(refresh);
  p.branches.onChange(refresh);
  return website;
}
