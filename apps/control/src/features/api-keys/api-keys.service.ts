/**
 * The owner's console for a tenant's REST API keys (docs/control-plane.md, "API keys"). The keys
 * themselves are packages/credentials' (the same service the ERP host's CLI and REST API use), so a
 * key made here works on the tenant's REST API at once and a revoked one fails there at once. This
 * adds the console's rules: the plan's `api_access`, keys acting for the tenant's ERP administrator,
 * and an entry in the control plane's audit log (the credentials' own trail records it too).
 */
import type { ApiKeyInfo, ApiKeysService } from '@platform/credentials';
import { type Db, withTenant } from '@platform/db';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';

/** Provisioning creates every tenant's ERP with this administrator; console keys act for it. */
export const CONSOLE_KEY_LOGIN = 'admin';

export interface KeyActor {
  principal: Principal;
  ip: string | undefined;
}

export class ConsoleApiKeys {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanLimits,
    private readonly audit: AuditLog,
    /** The tenant's key service (packages/credentials' composeApiKeys). */
    private readonly keysOf: (tenantId: string) => ApiKeysService,
  ) {}

  /** PLAN_FEATURE_MISSING (naming the cheapest plan with API access) before anything else. */
  private gate(tenantId: string): Promise<void> {
    return withTenant(this.db, tenantId, (tx) => this.plans.assertFeature(tx, tenantId, 'api_access'));
  }

  private record(a: KeyActor, action: string, key: ApiKeyInfo): Promise<void> {
    // The key's row is written in the credentials' own transaction; this entry follows it.
    return this.audit.recordUserAction(this.db, a.principal, {
      action,
      target: { type: 'api_key', id: key.id },
      ...(a.ip ? { ip: a.ip } : {}),
      detail: { prefix: key.prefix, scopes: key.scopes },
    });
  }

  async list(tenantId: string): Promise<ApiKeyInfo[]> {
    await this.gate(tenantId);
    return (await this.keysOf(tenantId).list()).reverse();
  }

  async create(
    a: KeyActor,
    input: { description: string; scopes: string[] },
  ): Promise<{ key: string; info: ApiKeyInfo }> {
    const tenantId = a.principal.tenantId;
    await this.gate(tenantId);
    const made = await this.keysOf(tenantId).create(
      { login: CONSOLE_KEY_LOGIN, description: input.description, scope: input.scopes },
      a.ip ? { clientIp: a.ip } : {},
    );
    await this.record(a, 'api_key.create', made.info);
    return made;
  }

  /** NOT_FOUND for a key of another tenant, an unknown one or one already revoked. */
  async revoke(a: KeyActor, keyId: number): Promise<void> {
    const tenantId = a.principal.tenantId;
    await this.gate(tenantId);
    const info = await this.keysOf(tenantId).revoke(keyId, a.ip ? { clientIp: a.ip } : {});
    await this.record(a, 'api_key.revoke', info);
  }
}
