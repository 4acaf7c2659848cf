/**
 * A tenant's domains: its platform subdomain (always there, active) and the custom domains it adds.
 * Every change runs in one tenant-scoped transaction with its audit entry. A custom domain starts
 * `pending`; the worker's DNS check and certificate job take it on from there
 * (docs/control-plane.md, "Domains and resolution").
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';
import {
  clearPrimary,
  deleteDomain,
  findDomain,
  insertDomain,
  isSameOrSubdomain,
  listDomains,
  lockTenantDomains,
  normaliseHost,
  restartVerification,
  setPrimary,
  type TenantDomainRow,
  type TenantHostResolver,
} from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { customDomainName, type ReservedNames } from './domain-rules.js';

export interface DomainsPolicy extends ReservedNames {
  verifyDeadlineMs: number;
}

/** Who acts and from where, for the audit log. */
export interface Actor {
  principal: Principal;
  ip: string | undefined;
}

export interface ByDomain {
  tenant_id: string;
  slug: string;
  name: string;
  domain: string;
  domain_type: 'subdomain' | 'custom';
}

export type AddOutcome = { created: boolean; domain: TenantDomainRow };

const notFound = () => new AppError('NOT_FOUND', 'No such domain.');

export class DomainsService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly resolver: TenantHostResolver,
    readonly policy: DomainsPolicy,
  ) {}

  list(tenantId: string): Promise<TenantDomainRow[]> {
    return withTenant(this.db, tenantId, (tx) => listDomains(tx, tenantId));
  }

  /**
   * Adds a custom domain. The same tenant adding it again gets its existing row back (a retried
   * request is not an error); a name another tenant holds is DOMAIN_TAKEN.
   */
  async add(actor: Actor, input: { domain: string; is_primary?: boolean | undefined }): Promise<AddOutcome> {
    const tenantId = actor.principal.tenantId;
    const domain = customDomainName(input.domain, this.policy);
    const primary = input.is_primary === true;
    return withTenant(this.db, tenantId, async (tx) => {
      await lockTenantDomains(tx, tenantId);
      const mine = (await listDomains(tx, tenantId)).find((d) => d.domain === domain);
      if (mine) {
        if (primary && !mine.is_primary) await this.makePrimary(tx, actor, mine);
        return { created: false, domain: (await findDomain(tx, tenantId, mine.id))! };
      }
      if (primary) await clearPrimary(tx, tenantId);
      const row = await insertDomain(tx, {
        tenantId,
        domain,
        type: 'custom',
        isPrimary: primary,
        sslStatus: 'pending',
      });
      if (!row) throw new AppError('DOMAIN_TAKEN', `${domain} is already registered on the platform.`);
      await this.record(tx, actor, 'domain.add', row, { domain, is_primary: primary });
      return { created: true, domain: row };
    });
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const tenantId = actor.principal.tenantId;
    await withTenant(this.db, tenantId, async (tx) => {
      await lockTenantDomains(tx, tenantId);
      const row = await findDomain(tx, tenantId, id);
      if (!row) throw notFound();
      if (row.domain_type === 'subdomain')
        throw new AppError('DOMAIN_INVALID', 'The platform subdomain cannot be removed.', {
          fieldIssues: [
            { field: 'domain_id', rule: 'platform_subdomain', message: 'the platform subdomain cannot be removed' },
          ],
        });
      await deleteDomain(tx, tenantId, id);
      // The site keeps a primary address: the platform subdomain takes over.
      if (row.is_primary) {
        const sub = (await listDomains(tx, tenantId)).find((d) => d.domain_type === 'subdomain');
        if (sub) await setPrimary(tx, tenantId, sub.id);
      }
      await this.record(tx, actor, 'domain.remove', row, { domain: row.domain });
    });
  }

  /** Which tenant a host belongs to (public: what the tenant's own site shows anyway). */
  async byDomain(host: string): Promise<ByDomain | undefined> {
    const domain = normaliseHost(host);
    const t = domain ? await this.resolver.resolve(domain) : undefined;
    if (!t) return undefined;
    const type = isSameOrSubdomain(domain, normaliseHost(this.policy.tenantsHost)) ? 'subdomain' : 'custom';
    return { tenant_id: t.tenantId, slug: t.slug, name: t.name, domain, domain_type: type };
  }

  /** The tenant's retry: a custom domain not yet active is looked at again now, with a new deadline. */
  async retry(actor: Actor, id: string): Promise<TenantDomainRow> {
    const tenantId = actor.principal.tenantId;
    return withTenant(this.db, tenantId, async (tx) => {
      const row = await findDomain(tx, tenantId, id);
      if (!row) throw notFound();
      if (row.domain_type === 'subdomain' || row.ssl_status === 'active') return row;
      const restarted = (await restartVerification(tx, tenantId, id, this.clock.now()))!;
      await this.record(tx, actor, 'domain.check', row, { domain: row.domain, was: row.ssl_status });
      return restarted;
    });
  }

  private async makePrimary(tx: Queryable, actor: Actor, row: TenantDomainRow): Promise<void> {
    await clearPrimary(tx, row.tenant_id);
    await setPrimary(tx, row.tenant_id, row.id);
    await this.record(tx, actor, 'domain.primary', row, { domain: row.domain });
  }

  private record(tx: Queryable, actor: Actor, action: string, row: TenantDomainRow, detail: Record<string, unknown>) {
    return this.audit.record(tx, {
      tenantId: row.tenant_id,
      actor: { kind: 'user', id: actor.principal.userId },
      action,
      target: { type: 'tenant_domain', id: row.id },
      ...(actor.ip ? { ip: actor.ip } : {}),
      detail,
    });
  }
}
