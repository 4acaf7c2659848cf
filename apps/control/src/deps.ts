/**
 * Composition root of the control plane: the only place that constructs its parts (tenancy and
 * provisioning, accounts, plans, domains, the tenant-scoped ERP API, portal tokens, audit, metrics).
 * Nothing here listens: control.server.ts does.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Db } from '@platform/db';
import { AppError, type Clock, systemClock } from '@platform/kernel';
import { type SecretBox, secretBoxFromConfig } from '@platform/secrets';
import { ErpDatabases, TenantErps as RoutedTenantErps } from '@platform/tenancy';

import type { ControlConfig } from './control.config.js';
import { MembersService } from './features/accounts/members.service.js';
import { AuditLog } from './features/audit/audit-log.js';
import { type AccessTokenKeys, accessTokenKeys } from './features/auth/access-token.js';
import { PlanLimits } from './features/plans/plan-limits.service.js';
import { erpRoutingReadiness, type TenantErps } from './features/tenants/tenant-erps.js';
import { TenantLifecycleService } from './features/tenants/tenant-lifecycle.service.js';
import { TenantProvisioningService } from './features/tenants/tenant-provisioning.service.js';
import { TenantSettingsService } from './features/tenants/tenant-settings.service.js';

export interface ControlDeps {
  config: ControlConfig;
  db: Db;
  clock: Clock;
  /** Named readiness checks for /health/ready beyond the database (each rejects when not ready). */
  readiness: Record<string, () => Promise<void>>;
  tokenKeys: AccessTokenKeys;
  plans: PlanLimits;
  audit: AuditLog;
  members: MembersService;
  erps: TenantErps;
  /** The platform's secret box (made on first use: tests without DATA_DIR never need one). */
  box: SecretBox;
  /** The routing-aware implementation behind `erps` (targets, cache invalidation). */
  tenantErps: RoutedTenantErps;
  provisioning: TenantProvisioningService;
  tenants: TenantLifecycleService;
  settings: TenantSettingsService;
}

export interface ComposeControlOptions {
  clock?: Clock;
  erps?: TenantErps;
  /** The embedded ERP's `db` service (tests: an ERP served on a loopback port). */
  databases?: () => ErpDatabases;
}

function lazySecretBox(make: () => SecretBox): SecretBox {
  let box: SecretBox | undefined;
  const get = () => (box ??= make());
  return {
    seal: (p, aad) => get().seal(p, aad),
    open: (c, aad) => get().open(c, aad),
    reseal: (c, aad) => get().reseal(c, aad),
  };
}

/** ERP_MASTER_PASSWORD, else the one the embedded ERP generated into DATA_DIR. */
export function erpMasterPassword(config: ControlConfig): string {
  if (config.ERP_MASTER_PASSWORD) return config.ERP_MASTER_PASSWORD;
  const file = join(config.DATA_DIR, 'erp-master-password');
  const pw = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (!pw)
    throw new AppError('ERP_UNAVAILABLE', 'No ERP_MASTER_PASSWORD and the embedded ERP has not written its own yet.');
  return pw;
}

/** CONTROL_JWT_SECRET, or (embedded mode) a key generated once and kept beside the data. */
function jwtSecret(config: ControlConfig): string {
  if (config.CONTROL_JWT_SECRET) return config.CONTROL_JWT_SECRET;
  const file = join(config.DATA_DIR, 'control-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.DATA_DIR, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  // 'wx': two processes starting at once must not each write their own key.
  try {
    writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    return key;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}

export function composeControl(config: ControlConfig, db: Db, opts: ComposeControlOptions = {}): ControlDeps {
  const previous = (config.CONTROL_JWT_PREVIOUS_SECRETS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const plans = new PlanLimits();
  const box = lazySecretBox(() => secretBoxFromConfig(config));
  const tenantErps = new RoutedTenantErps(db, box, config);
  const databases =
    opts.databases ??
    (() =>
      new ErpDatabases({
        url: config.ERP_URL,
        masterPassword: erpMasterPassword(config),
        timeoutMs: config.ERP_TIMEOUT_MS,
      }));
  const audit = new AuditLog();
  const members = new MembersService(plans);
  const onRoutingChanged = (id: string) => tenantErps.invalidate(id);
  return {
    config,
    db,
    clock: opts.clock ?? systemClock,
    readiness: { erp_routing: erpRoutingReadiness(db, tenantErps) },
    tokenKeys: accessTokenKeys(config.CONTROL_JWT_ISSUER, jwtSecret(config), previous),
    plans,
    audit,
    members,
    erps: opts.erps ?? tenantErps,
    box,
    tenantErps,
    provisioning: new TenantProvisioningService({
      db,
      box,
      databases,
      erpUrl: config.ERP_URL,
      erpTimeoutMs: config.ERP_TIMEOUT_MS,
      tenantsHost: config.TENANTS_HOST,
      members,
      audit,
      onRoutingChanged,
    }),
    tenants: new TenantLifecycleService({
      db,
      box,
      databases,
      erpTimeoutMs: config.ERP_TIMEOUT_MS,
      audit,
      onRoutingChanged,
    }),
    settings: new TenantSettingsService(db, plans, audit),
  };
}
