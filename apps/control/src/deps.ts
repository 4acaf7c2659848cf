/**
 * Composition root of the control plane: the only place that constructs its parts (tenancy and
 * provisioning, accounts, plans, domains, the tenant-scoped ERP API, portal tokens, audit, metrics).
 * Nothing here listens: control.server.ts does.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Db } from '@platform/db';
import { type Clock, systemClock } from '@platform/kernel';
import { TenantHostResolver } from '@platform/tenancy';

import type { ControlConfig } from './control.config.js';
import { MembersService } from './features/accounts/members.service.js';
import { AuditLog } from './features/audit/audit-log.js';
import { type AccessTokenKeys, accessTokenKeys } from './features/auth/access-token.js';
import { DomainsService } from './features/domains/domains.service.js';
import { PlanLimits } from './features/plans/plan-limits.service.js';
import { defaultTenantErps, type TenantErps } from './features/tenants/tenant-erps.js';

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
  /** Host → tenant (by-domain); listens for changes while the app is up (domains.routes.ts). */
  resolver: TenantHostResolver;
  domains: DomainsService;
}

export interface ComposeControlOptions {
  clock?: Clock;
  erps?: TenantErps;
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
  const clock = opts.clock ?? systemClock;
  const audit = new AuditLog();
  const resolver = new TenantHostResolver(db, { tenantsHost: config.TENANTS_HOST });
  return {
    config,
    db,
    clock,
    readiness: {},
    tokenKeys: accessTokenKeys(config.CONTROL_JWT_ISSUER, jwtSecret(config), previous),
    plans,
    audit,
    members: new MembersService(plans),
    erps: opts.erps ?? defaultTenantErps(config),
    resolver,
    domains: new DomainsService(db, audit, clock, resolver, {
      tenantsHost: config.TENANTS_HOST,
      platformHosts: [
        config.ERP_DOMAIN,
        config.LANDING_DOMAIN,
        config.PWA_DOMAIN,
        config.DOCS_DOMAIN,
        ...(config.RESERVED_DOMAINS ?? []),
      ],
      verifyDeadlineMs: config.DOMAIN_VERIFY_DEADLINE_H * 3_600_000,
    }),
  };
}
