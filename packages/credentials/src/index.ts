/**
 * A tenant's REST API credentials that more than one host manages: API keys (made and revoked by the
 * ERP host's CLI and by the owner's console on the control plane, checked by the ERP host's REST API),
 * their scopes and secrets, and the credentials' audit trail. The tables `restapi_keys` and
 * `restapi_audit_events` are this package's alone (docs/table-owners.md).
 */
import type { Db } from '@platform/db';
import { assertTenantFeature } from '@platform/tenancy';

import { ApiKeysService } from './api-keys.service.js';
import { AuditRepo } from './audit.repo.js';
import { AuditService } from './audit.service.js';

export { type ApiKeyRow } from './api-keys.repo.js';
export { type ApiKeyInfo, ApiKeysService, toInfo } from './api-keys.service.js';
export { AuditRepo } from './audit.repo.js';
export { type AuditEntry, type AuditEvent, type AuditRow, AuditService } from './audit.service.js';
export { RevocableRowsRepo } from './revocable-rows.repo.js';
export * from './scopes.js';
export * from './secret-token.js';

/** A tenant's audit trail and API keys; the plan's `api_access` is read per call (a downgrade applies at once). */
export function composeApiKeys(db: Db, tenantId: string): { audit: AuditService; keys: ApiKeysService } {
  const audit = new AuditService(new AuditRepo(db, tenantId));
  const apiAccess = () => assertTenantFeature(db, tenantId, 'api_access');
  return { audit, keys: new ApiKeysService(db, tenantId, audit, apiAccess) };
}
