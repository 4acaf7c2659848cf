/**
 * The tenant's ERP, as the control plane reaches it: `forTenant(id)` is the client of that tenant's
 * own ERP database under its service account. SEAM: until per-tenant routing lands (tenancy), every
 * tenant gets the platform's default ERP connection (ERP_URL, ERP_DB, ERP_LOGIN and ERP_API_KEY or
 * the embedded ERP's key file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createOdooErp, type Erp } from '@platform/erp';
import { AppError } from '@platform/kernel';

export interface TenantErps {
  forTenant(tenantId: string): Promise<Erp>;
}

export interface DefaultErpSettings {
  ERP_URL: string;
  ERP_DB: string;
  ERP_LOGIN: string;
  ERP_API_KEY?: string | undefined;
  ERP_TIMEOUT_MS: number;
  DATA_DIR: string;
}

export function defaultTenantErps(s: DefaultErpSettings): TenantErps {
  let cached: { secret: string; erp: Erp } | undefined;
  const secret = () => {
    if (s.ERP_API_KEY) return s.ERP_API_KEY;
    const file = join(s.DATA_DIR, 'erp-platform-api-key');
    const key = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    if (!key) throw new AppError('ERP_UNAVAILABLE', 'No ERP_API_KEY and no embedded ERP key file yet.');
    return key;
  };
  return {
    forTenant: async () => {
      const k = secret();
      if (cached?.secret !== k)
        cached = {
          secret: k,
          erp: createOdooErp({
            url: s.ERP_URL,
            db: s.ERP_DB,
            login: s.ERP_LOGIN,
            secret: k,
            timeoutMs: s.ERP_TIMEOUT_MS,
          }),
        };
      return cached.erp;
    },
  };
}
