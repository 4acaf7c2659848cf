/**
 * A tenant's branches (plan feature multi_location): their details, the ZIP codes each serves (a ZIP
 * belongs to one branch at most), one default branch for every other ZIP, and the people limited to
 * them. Office staff and technicians who are members of a branch see only their branches' leads and
 * jobs; owners and admins see all. A downgrade keeps the branches and their filters; only changes need
 * the feature.
 */
import { randomUUID } from 'node:crypto';

import { type Db, withTenant } from '@platform/db';
import type { Domain } from '@platform/erp';
import { AppError } from '@platform/kernel';

import { profileIn } from '../accounts/accounts.repo.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { BranchCache } from './branch-cache.js';
import { branchDomain, branchOfZip } from './branch-scope.js';
import * as repo from './branches.repo.js';

export type BranchInput = repo.BranchFields & { is_default?: boolean | undefined; member_ids?: string[] | undefined };

const notFound = () => new AppError('NOT_FOUND', 'No such branch.');
const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field} ${message}`, { fieldIssues: [{ field, rule: 'conflict', message }] });

export class BranchesService {
  /** Told after each committed change (the website's service areas follow the branches). */
  private readonly listeners: ((tenantId: string) => Promise<void>)[] = [];
  /** The branches the scope reads on every list (branch-cache.ts: kept only while listening for changes). */
  readonly cache: BranchCache;

  constructor(
    private readonly db: Db,
    private readonly plans: Pick<PlanLimits, 'assertFeature'>,
    private readonly audit: AuditLog,
  ) {
    this.cache = new BranchCache(db, (tenantId) => this.list(tenantId));
  }

  onChange(listener: (tenantId: string) => Promise<void>): void {
    this.listeners.push(listener);
  }

  list(tenantId: string): Promise<repo.BranchRow[]> {
    return withTenant(this.db, tenantId, (tx) => repo.listBranches(tx, tenantId));
  }

  async create(p: Principal, input: BranchInput): Promise<repo.BranchRow> {
    const id = randomUUID();
    await this.change(p, 'branch.create', id, async (tx, all) => {
      await repo.insertBranch(tx, p.tenantId, id, { ...input, is_default: all.length === 0 });
      return input;
    });
    return this.one(p.tenantId, id);
  }

  async update(p: Principal, id: string, input: BranchInput): Promise<repo.BranchRow> {
    await this.change(p, 'branch.update', id, async (tx, all) => {
      if (!all.some((b) => b.id === id)) throw notFound();
      await repo.updateBranch(tx, p.tenantId, id, input);
      return input;
    });
    return this.one(p.tenantId, id);
  }

  async remove(p: Principal, id: string): Promise<void> {
    await this.change(p, 'branch.delete', id, async (tx, all) => {
      const b = all.find((x) => x.id === id);
      if (!b) throw notFound();
      if (b.is_default && all.length > 1)
        throw new AppError('BRANCH_IS_DEFAULT', 'Make another branch the default before removing this one.');
      await repo.deleteBranch(tx, p.tenantId, id);
      return undefined;
    });
  }

  /**
   * The ERP domain of the records `p` may see by `field` (a ZIP field), narrowed to `branchId` when
   * given; null when nothing narrows it (no branches, or an owner or admin asking for all).
   */
  async scope(p: Principal, field: string, branchId?: string): Promise<Domain | null> {
    return (await this.lens(p, field, branchId)).domain;
  }

  /**
   * `scope` for several ZIP fields from one read of the branches (a report filters leads, orders,
   * invoices and jobs each by its own ZIP field), and the branches `p` sees (for revenue by branch);
   * null when the tenant has no branches.
   */
  async scopes<K extends string>(
    p: Principal,
    fields: Record<K, string>,
    branchId?: string,
  ): Promise<{
    domains: Record<K, Domain> | null;
    of: (b: repo.BranchRow) => Record<K, Domain>;
    visible: readonly repo.BranchRow[];
  } | null> {
    const all = await this.cache.get(p.tenantId);
    if (!all.length) {
      if (branchId) throw notFound();
      return null;
    }
    const per = <T>(f: (field: string) => T) =>
      Object.fromEntries(Object.entries<string>(fields).map(([k, field]) => [k, f(field)])) as Record<K, T>;
    const first = domainOf(all, p, Object.values<string>(fields)[0]!, branchId);
    const mine = ['owner', 'admin'].includes(p.role) ? [] : all.filter((b) => b.member_ids.includes(p.userId));
    const visible = branchId ? all.filter((b) => b.id === branchId) : mine.length ? mine : all;
    return {
      domains: first ? per((field) => domainOf(all, p, field, branchId)!) : null,
      of: (b) => per((field) => branchDomain(all, [b], field)),
      visible,
    };
  }

  /**
   * `scope` and a function naming the branch of a ZIP (absent when the tenant has no branches), from
   * one read of the branches: what a list needs.
   */
  async lens(p: Principal, field: string, branchId?: string): Promise<BranchLens> {
    const all = await this.cache.get(p.tenantId);
    return { domain: domainOf(all, p, field, branchId), label: all.length ? labelOf(all) : undefined };
  }

  private async one(tenantId: string, id: string): Promise<repo.BranchRow> {
    const b = (await this.list(tenantId)).find((x) => x.id === id);
    if (!b) throw notFound();
    return b;
  }

  /** One change under the plan, with the tenant's branches locked: ZIPs and members checked, audited. */
  private async change(
    p: Principal,
    action: string,
    id: string,
    write: (tx: Parameters<typeof repo.listBranches>[0], all: repo.BranchRow[]) => Promise<BranchInput | undefined>,
  ): Promise<void> {
    await withTenant(this.db, p.tenantId, async (tx) => {
      await this.plans.assertFeature(tx, p.tenantId, 'multi_location');
      const all = await repo.listBranches(tx, p.tenantId, true);
      const input = await write(tx, all);
      if (input) {
        const taken = all.find((b) => b.id !== id && b.zip_codes.some((z) => input.zip_codes.includes(z)));
        if (taken) {
          const zip = taken.zip_codes.find((z) => input.zip_codes.includes(z));
          throw invalid('zip_codes', `${zip} is served by ${taken.name} already: a ZIP code belongs to one branch`);
        }
        if (input.member_ids) {
          for (const userId of input.member_ids)
            if (!(await profileIn(tx, p.tenantId, userId)))
              throw invalid('member_ids', `${userId} is not in your team`);
          await repo.setMembers(tx, p.tenantId, id, input.member_ids);
        }
        if (input.is_default) await repo.makeDefault(tx, p.tenantId, id);
      }
      await this.audit.record(tx, {
        tenantId: p.tenantId,
        actor: { kind: 'user', id: p.userId },
        action,
        target: { type: 'branch', id },
      });
    });
    // This process forgets at once; the others hear the trigger's NOTIFY (migration 0530).
    this.cache.invalidate(p.tenantId);
    for (const l of this.listeners) await l(p.tenantId);
  }
}

export interface BranchLens {
  domain: Domain | null;
  label?: ((zip: unknown) => { id: string; name: string } | null) | undefined;
}

/** The domain of `scope` from the tenant's branches `all`. */
function domainOf(all: readonly repo.BranchRow[], p: Principal, field: string, branchId?: string): Domain | null {
  if (!all.length) {
    if (branchId) throw notFound();
    return null;
  }
  const mine = ['owner', 'admin'].includes(p.role) ? [] : all.filter((b) => b.member_ids.includes(p.userId));
  const visible = mine.length ? mine : all;
  if (branchId) {
    const b = visible.find((x) => x.id === branchId);
    if (!b) throw notFound();
    return branchDomain(all, [b], field);
  }
  return mine.length ? branchDomain(all, mine, field) : null;
}

const labelOf = (all: readonly repo.BranchRow[]) => (zip: unknown) => {
  const b = branchOfZip(all, typeof zip === 'string' ? zip : null);
  return b ? { id: b.id, name: b.name } : null;
};
