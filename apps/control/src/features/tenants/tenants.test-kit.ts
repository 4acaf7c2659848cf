/**
 * Test support of the tenants feature: the control-plane kit with a real embedded ERP served over
 * JSON-RPC on a loopback port (in the kit's own test database), reached by provisioning through
 * Odoo's `db` service with its master password, and an operator token.
 */
import { randomBytes } from 'node:crypto';

import { startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { ErpDatabases } from '@platform/tenancy';

import type { ComposeControlOptions } from '../../deps.js';
import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

export const OPERATOR_TOKEN = 'operator-token-of-the-tests-0123456789';
export const MASTER = 'master-password-of-the-tests';

export interface TenantsKit extends ControlKit {
  erp: TestErp;
  /** What provisioning calls the ERP's `db` service through; `use` replaces it (to make a step fail). */
  databases: { current: ErpDatabases; use(d: ErpDatabases): void };
  operator: { authorization: string };
}

/** `extra`: more of the composition's options (e.g. sign-up's bot check). */
export async function startTenantsKit(extra: ComposeControlOptions = {}): Promise<TenantsKit> {
  // The ERP keeps its databases apart from the platform's, as in production.
  const erp = await startTestErp({ dbName: 'install_default', masterPassword: MASTER });
  const holder = {
    current: new ErpDatabases({ url: erp.url, masterPassword: MASTER, timeoutMs: 30_000 }),
    use(d: ErpDatabases) {
      holder.current = d;
    },
  };
  const kit = await startControlKit(
    {
      CONTROL_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
      ERP_URL: erp.url,
      ERP_DB: 'install_default',
      ERP_API_KEY: erp.apiKey,
      ERP_TIMEOUT_MS: '30000',
    },
    { ...extra, databases: () => holder.current },
  ).catch(async (e: unknown) => {
    await erp.close();
    throw e;
  });
  const closeKit = kit.close;
  return Object.assign(kit, {
    erp,
    operator: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    databases: holder,
    async close() {
      await closeKit();
      await erp.close();
    },
  });
}
