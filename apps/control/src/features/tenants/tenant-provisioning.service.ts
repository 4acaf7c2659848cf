/**
 * Creating a tenant (docs/control-plane.md, "Provisioning"): the tenant row reserved as
 * `provisioning`, its own ERP database on the embedded ERP (named after the slug) with a dedicated
 * service account and API key, or instead a verified outside Odoo 15; then, in ONE platform
 * transaction, the sealed routing, the platform subdomain, the owner membership, the audit entry and
 * `status = 'active'`. Until that commit the tenant resolves nowhere and its tokens are refused.
 *
 * Idempotent when interrupted: `create` again with the same slug finishes it. An embedded database
 * left without a routing row never had its service key saved, so it is dropped and made again;
 * nothing else outside the platform database exists before the last transaction.
 */
import { randomBytes } from 'node:crypto';

import type { Db, Queryable } from '@platform/db';
import { AppError } from '@platform/kernel';
import type { SecretBox } from '@platform/secrets';
import {
  deleteProvisioningTenant,
  ensureSubdomain,
  type ErpDatabases,
  getErpRouting,
  getTenantRecord,
  insertProvisioningTenant,
  type PlanId,
  putErpRouting,
  setTenantErpDb,
  setTenantStatus,
  type TenantRecord,
  verifyOutsideErp,
} from '@platform/tenancy';

import type { MembersService } from '../accounts/members.service.js';
import type { AuditEntry, AuditLog } from '../audit/audit-log.js';

export interface OutsideErp {
  url: string;
  db: string;
  login: string;
  api_key: string;
}

export interface CreateTenantInput {
  slug: string;
  name: string;
  plan: PlanId;
  owner_email: string;
  owner_password: string;
  owner_name?: string | undefined;
  erp?: OutsideErp | undefined;
}

/**
 * A self-serve sign-up's creation: the slug must be new (an existing tenant of any state is
 * TENANT_SLUG_TAKEN), a failure at any step undoes what was made (the ERP database is dropped, the
 * reserved tenant row deleted) instead of waiting for a re-run, and `activate` runs in the last
 * transaction, so what it writes exists only if the tenant does.
 */
export interface FreshTenantOptions {
  activate: (q: Queryable, made: { tenantId: string; ownerId: string }) => Promise<void>;
}

export interface ProvisionedTenant {
  id: string;
  slug: string;
  erp_db: string;
  status: string;
}

export interface ProvisioningDeps {
  db: Db;
  box: SecretBox;
  /** The embedded ERP's `db` service (created on use: its master password is read then). */
  databases: () => ErpDatabases;
  /** Where tenants' clients reach the embedded ERP (ERP_URL). */
  erpUrl: string;
  erpTimeoutMs: number;
  tenantsHost: string;
  members: Pick<MembersService, 'ensureMember'>;
  audit: AuditLog;
  /** Drops cached ERP clients of a tenant whose routing changed. */
  onRoutingChanged: (tenantId: string) => void;
}

export const SERVICE_LOGIN = 'platform-service';
/** `acme-blinds` → `t_acme_blinds` (the embedded ERP's database names are `[a-z0-9_]`). */
export const erpDbOf = (slug: string) => `t_${slug.replace(/-/g, '_')}`;
export type Actor = AuditEntry['actor'];

export class TenantProvisioningService {
  constructor(private readonly d: ProvisioningDeps) {}

  /** Creates a new tenant or refuses; never leaves anything behind when a step fails. */
  async createFresh(input: CreateTenantInput, actor: Actor, ip: string, fresh: FreshTenantOptions) {
    const { record, created } = await insertProvisioningTenant(this.d.db, {
      slug: input.slug,
      name: input.name,
      plan: input.plan,
      erpDb: erpDbOf(input.slug),
    });
    if (!created)
      throw new AppError('TENANT_SLUG_TAKEN', `The address ${input.slug} is taken.`, { details: { field: 'slug' } });
    try {
      return await this.finish(record, input, actor, ip, fresh);
    } catch (e) {
      await this.undo(record);
      throw e;
    }
  }

  async create(input: CreateTenantInput, actor: Actor, ip?: string): Promise<ProvisionedTenant> {
    const outside = input.erp;
    // An outside ERP is checked before anything is written: a typo never leaves a tenant behind.
    if (outside)
      await verifyOutsideErp(
        { url: outside.url, db: outside.db, login: outside.login, apiKey: outside.api_key },
        this.d.erpTimeoutMs,
      );
    const erpDb = outside?.db ?? erpDbOf(input.slug);
    const { record } = await insertProvisioningTenant(this.d.db, {
      slug: input.slug,
      name: input.name,
      plan: input.plan,
      erpDb,
    });
    if (record.status === 'active') return this.answer(record);
    if (record.status !== 'provisioning')
      throw new AppError('TENANT_SLUG_TAKEN', `A ${record.status} tenant already has the slug ${input.slug}.`, {
        details: { status: record.status },
      });
    return this.finish(record, input, actor, ip);
  }

  private async finish(
    record: TenantRecord,
    input: CreateTenantInput,
    actor: Actor,
    ip: string | undefined,
    fresh?: FreshTenantOptions,
  ): Promise<ProvisionedTenant> {
    const outside = input.erp;
    const routing = outside
      ? { kind: 'odoo' as const, url: outside.url, db: outside.db, login: outside.login, apiKey: outside.api_key }
      : await this.embeddedDatabase(record);
    await this.d.db.transaction(async (q) => {
      await putErpRouting(q, this.d.box, { tenantId: record.id, ...routing });
      await setTenantErpDb(q, record.id, routing.db);
      await ensureSubdomain(q, record.id, input.slug, this.d.tenantsHost);
      const owner = await this.d.members.ensureMember(q, record.id, {
        email: input.owner_email,
        role: 'owner',
        password: input.owner_password,
        ...(input.owner_name ? { name: input.owner_name } : {}),
      });
      if (fresh) await fresh.activate(q, { tenantId: record.id, ownerId: owner.userId });
      await setTenantStatus(q, record.id, ['provisioning'], 'active');
      await this.d.audit.record(q, {
        tenantId: record.id,
        actor,
        action: 'tenant.create',
        target: { type: 'tenant', id: record.id },
        ...(ip ? { ip } : {}),
        detail: { slug: input.slug, plan: input.plan, erp_kind: routing.kind, erp_db: routing.db },
      });
    });
    this.d.onRoutingChanged(record.id);
    return this.answer((await getTenantRecord(this.d.db, record.id))!);
  }

  /** Takes back a fresh tenant whose creation failed: its ERP database, then its reserved row. */
  private async undo(t: TenantRecord): Promise<void> {
    const name = erpDbOf(t.slug);
    const dbs = this.d.databases();
    if (await dbs.exists(name)) await dbs.drop(name);
    await deleteProvisioningTenant(this.d.db, t.id);
  }

  /** The tenant's embedded database, its service account and key; a half-made one is made again. */
  private async embeddedDatabase(t: TenantRecord) {
    const existing = await getErpRouting(this.d.db, this.d.box, t.id);
    if (existing) return existing;
    const name = erpDbOf(t.slug);
    const dbs = this.d.databases();
    // No routing row: an earlier run stopped before saving the key, so nothing uses this database.
    if (await dbs.exists(name)) await dbs.drop(name);
    const adminPassword = randomBytes(18).toString('base64url');
    await dbs.create(name, adminPassword);
    const account = await dbs.createServiceAccount(name, adminPassword, SERVICE_LOGIN);
    return { kind: 'embedded' as const, url: this.d.erpUrl, db: name, login: account.login, apiKey: account.apiKey };
  }

  private answer(t: TenantRecord): ProvisionedTenant {
    return { id: t.id, slug: t.slug, erp_db: t.erp_db ?? '', status: t.status };
  }
}
