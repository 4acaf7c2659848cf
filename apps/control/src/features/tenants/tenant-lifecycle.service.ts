/**
 * What happens to a tenant after it exists (docs/control-plane.md, "Suspending and deleting"):
 * suspend (sign-in and tokens refused with TENANT_SUSPENDED, hosts stop resolving, outbox delivery
 * paused, data kept), resume, delete (soft: `deleted`, domains released, memberships and data kept
 * for the audit; the embedded ERP database is dropped only by an explicit purge N days later), and
 * routing to an outside Odoo 15. Every change is audited in its own transaction.
 */
import type { Db } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { SecretBox } from '@platform/secrets';
import {
  type ErpDatabases,
  getTenantRecord,
  listTenantRecords,
  markErpPurged,
  putErpRouting,
  releaseTenantDomains,
  setTenantErpDb,
  setTenantStatus,
  type TenantRecord,
  type TenantStatus,
  tenantsToPurge,
  verifyOutsideErp,
} from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { Actor, OutsideErp } from './tenant-provisioning.service.js';

export interface LifecycleDeps {
  db: Db;
  box: SecretBox;
  databases: () => ErpDatabases;
  erpTimeoutMs: number;
  audit: AuditLog;
  onRoutingChanged: (tenantId: string) => void;
}

const MOVES: Record<'suspend' | 'resume' | 'delete', { from: TenantStatus[]; to: TenantStatus }> = {
  suspend: { from: ['active'], to: 'suspended' },
  resume: { from: ['suspended'], to: 'active' },
  delete: { from: ['active', 'suspended', 'provisioning'], to: 'deleted' },
};

export class TenantLifecycleService {
  constructor(private readonly d: LifecycleDeps) {}

  async get(id: string): Promise<TenantRecord> {
    const t = await getTenantRecord(this.d.db, id);
    if (!t) throw new AppError('NOT_FOUND', 'No such tenant.');
    return t;
  }

  list(): Promise<TenantRecord[]> {
    return listTenantRecords(this.d.db);
  }

  /** suspend | resume | delete; repeating a move already made answers the tenant as it is. */
  async move(id: string, move: keyof typeof MOVES, actor: Actor, ip?: string): Promise<TenantRecord> {
    const { from, to } = MOVES[move];
    const before = await this.get(id);
    if (before.status === to) return before;
    if (before.is_default && move === 'delete')
      throw new AppError('TENANT_STATE_CONFLICT', 'The default tenant of the install cannot be deleted.', {
        details: { status: before.status },
      });
    await this.d.db.transaction(async (q) => {
      if (!(await setTenantStatus(q, id, from, to)))
        throw new AppError('TENANT_STATE_CONFLICT', `A ${before.status} tenant cannot be ${to}.`, {
          details: { status: before.status },
        });
      const released = move === 'delete' ? await releaseTenantDomains(q, id) : 0;
      await this.d.audit.record(q, {
        tenantId: id,
        actor,
        action: `tenant.${move}`,
        target: { type: 'tenant', id },
        ...(ip ? { ip } : {}),
        detail: { from: before.status, to, ...(move === 'delete' ? { domains_released: released } : {}) },
      });
    });
    return this.get(id);
  }

  /** Routes the tenant to an outside Odoo 15, checked by `common.version` and `authenticate` first. */
  async routeOutside(id: string, erp: OutsideErp, actor: Actor): Promise<TenantRecord> {
    const t = await this.get(id);
    if (t.status === 'deleted')
      throw new AppError('TENANT_STATE_CONFLICT', 'A deleted tenant cannot be routed.', {
        details: { status: t.status },
      });
    await verifyOutsideErp({ url: erp.url, db: erp.db, login: erp.login, apiKey: erp.api_key }, this.d.erpTimeoutMs);
    await this.d.db.transaction(async (q) => {
      await putErpRouting(q, this.d.box, {
        tenantId: id,
        kind: 'odoo',
        url: erp.url,
        db: erp.db,
        login: erp.login,
        apiKey: erp.api_key,
      });
      await setTenantErpDb(q, id, erp.db);
      await this.d.audit.record(q, {
        tenantId: id,
        actor,
        action: 'tenant.route',
        target: { type: 'tenant', id },
        detail: { erp_url: erp.url, erp_db: erp.db, erp_login: erp.login },
      });
    });
    this.d.onRoutingChanged(id);
    return this.get(id);
  }

  /** Drops the embedded ERP databases of tenants deleted more than `days` days ago; returns them. */
  async purge(now: Date, days: number, actor: Actor): Promise<TenantRecord[]> {
    const due = await tenantsToPurge(this.d.db, new Date(now.getTime() - days * 86_400_000));
    for (const t of due) {
      if (t.erp_db) await this.d.databases().drop(t.erp_db);
      await this.d.db.transaction(async (q) => {
        await markErpPurged(q, t.id);
        await this.d.audit.record(q, {
          tenantId: t.id,
          actor,
          action: 'tenant.purge',
          target: { type: 'tenant', id: t.id },
          detail: { erp_db: t.erp_db },
        });
      });
    }
    return due;
  }
}
