/**
 * Who may manage a tenant's accounting connection from a browser (`/acct/connect?tenant=<slug>`):
 * an admin login of that tenant's own ERP database, checked by that ERP. The host's own tenant keeps
 * the host's check (its ERP behind the REST API). Another tenant's database is found through the
 * ERP routing the control plane keeps (@platform/tenancy): an outside Odoo is asked over its
 * JSON-RPC `common.authenticate`, a database of the embedded ERP in this process directly. A login
 * of tenant A's ERP therefore never opens tenant B's pages.
 */
import type { Queryable } from '@platform/db';
import { createOdooRpcClient } from '@platform/erp';
import type { SecretBox } from '@platform/secrets';
import { findTenantById, getErpRouting } from '@platform/tenancy';

export interface TenantAdminLoginDeps {
  db: Queryable;
  box: SecretBox;
  hostTenantId: string;
  /** The host's own check (the ERP behind its REST API). */
  hostVerify(login: string, password: string): Promise<boolean>;
  /** The embedded ERP of this process: is this login and password (or API key) good on database `erpDb`? */
  embeddedVerify(erpDb: string, login: string, password: string): Promise<boolean>;
  timeoutMs?: number;
}

export function tenantAdminLogin(d: TenantAdminLoginDeps) {
  return async (tenantId: string, login: string, password: string): Promise<boolean> => {
    if (tenantId === d.hostTenantId) return d.hostVerify(login, password);
    const routing = await getErpRouting(d.db, d.box, tenantId);
    if (routing?.kind === 'odoo') {
      const rpc = createOdooRpcClient({
        url: routing.url,
        secrets: [password],
        ...(d.timeoutMs ? { timeoutMs: d.timeoutMs } : {}),
      });
      const uid = await rpc.call('common', 'authenticate', [routing.db, login, password, {}]);
      return typeof uid === 'number' && uid > 0;
    }
    const erpDb = routing?.db ?? (await findTenantById(d.db, tenantId))?.erp_db;
    // A tenant without a database of its own shares none of the host's logins.
    return erpDb ? d.embeddedVerify(erpDb, login, password) : false;
  };
}
