/**
 * Per-user REST API keys: generated here (shown once), stored as SHA-256, scoped, revocable. Every
 * creation and revocation is audited; a revoked key fails at once (no cache between requests). A
 * tenant whose plan lacks API access cannot create keys (docs/control-plane.md, "Plans and limits").
 */
import { type Db, type Queryable, withTenant } from '@platform/db';
import { AppError } from '@platform/kernel';

import { type ApiKeyRow, ApiKeysRepo } from './api-keys.repo.js';
import type { AuditService } from './audit.service.js';
import { formatScopes, parseScopes } from './scopes.js';
import { API_KEY_RE, newApiKey, sha256 } from './secret-token.js';

export interface ApiKeyInfo {
  id: number;
  login: string;
  description: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
export const toInfo = (r: ApiKeyRow): ApiKeyInfo => ({
  id: r.id,
  login: r.login,
  description: r.description,
  prefix: r.prefix,
  scopes: r.scopes.split(' '),
  createdAt: iso(r.created_at)!,
  lastUsedAt: iso(r.last_used_at),
  revokedAt: iso(r.revoked_at),
});

export class ApiKeysService {
  private readonly repo: ApiKeysRepo;

  constructor(
    private readonly db: Db,
    private readonly tenantId: string,
    private readonly audit: AuditService,
    /** Refuses (PLAN_FEATURE_MISSING) when the tenant's plan lacks API access. */
    private readonly apiAccess: () => Promise<void>,
  ) {
    this.repo = new ApiKeysRepo(db, tenantId);
  }

  /** PLAN_FEATURE_MISSING while the tenant's plan lacks API access (checked per call). */
  assertApiAccess(): Promise<void> {
    return this.apiAccess();
  }

  /**
   * Management (create, list, revoke) runs as the tenant (row-level security), whichever host asks:
   * the control plane serves many tenants from one process, so a wrong id must find nothing.
   */
  private scoped<T>(fn: (repo: ApiKeysRepo, q: Queryable) => Promise<T>): Promise<T> {
    return withTenant(this.db, this.tenantId, (q) => fn(new ApiKeysRepo(q, this.tenantId), q));
  }

  /** Returns the key in clear: the only time it exists outside the caller's hands. */
  async create(
    input: { login: string; description: string; scope: string | string[] },
    actor?: { clientIp?: string },
  ): Promise<{ key: string; info: ApiKeyInfo }> {
    await this.apiAccess();
    const description = input.description.trim();
    if (!description)
      throw new AppError('VALIDATION_FAILED', 'An API key needs a description', {
        fieldIssues: [{ field: 'description', rule: 'required', message: 'required' }],
      });
    if (!input.login.trim())
      throw new AppError('VALIDATION_FAILED', 'An API key acts for an ERP user login', {
        fieldIssues: [{ field: 'login', rule: 'required', message: 'required' }],
      });
    const scopes = formatScopes(parseScopes(input.scope));
    const { key, prefix } = newApiKey();
    const row = await this.scoped(async (repo, q) => {
      const r = await repo.insert({ login: input.login.trim(), description, prefix, keyHash: sha256(key), scopes }, q);
      await this.audit.record(
        {
          event: 'key_created',
          keyId: r.id,
          login: r.login,
          clientIp: actor?.clientIp ?? null,
          detail: { prefix, scopes },
        },
        q,
      );
      return r;
    });
    return { key, info: toInfo(row) };
  }

  async list(): Promise<ApiKeyInfo[]> {
    return (await this.scoped((repo) => repo.list())).map(toInfo);
  }

  async revoke(id: number, actor?: { clientIp?: string }): Promise<ApiKeyInfo> {
    const row = await this.scoped(async (repo, q) => {
      const r = await repo.revoke(id, q);
      if (r)
        await this.audit.record(
          {
            event: 'key_revoked',
            keyId: r.id,
            login: r.login,
            clientIp: actor?.clientIp ?? null,
            detail: { prefix: r.prefix },
          },
          q,
        );
      return r;
    });
    if (!row) throw new AppError('NOT_FOUND', `No live API key ${id}`);
    return toInfo(row);
  }

  /**
   * The live key row for a presented key, or undefined (unknown, malformed or revoked). On every REST
   * request, so no transaction: the key's hash and the host's tenant are both in the WHERE.
   */
  async verify(presented: string): Promise<ApiKeyRow | undefined> {
    if (!API_KEY_RE.test(presented)) return undefined;
    const row = await this.repo.findByHash(sha256(presented));
    if (!row || row.revoked_at) return undefined;
    await this.repo.touch(row.id);
    return row;
  }
}
