/**
 * Composition root of the control plane: the only place that constructs its parts (tenancy and
 * provisioning, accounts, plans, domains, the tenant-scoped ERP API, portal tokens, audit, metrics).
 * Nothing here listens: control.server.ts does.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Db } from '@platform/db';
import { EmailOutboxService } from '@platform/email';
import { RateLimiter } from '@platform/http-kit';
import { type Clock, systemClock } from '@platform/kernel';

import type { ControlConfig } from './control.config.js';
import { InvitationService } from './features/accounts/invitations.service.js';
import { LoginService } from './features/accounts/login.service.js';
import { LoginThrottle } from './features/accounts/login-throttle.js';
import { MembersService } from './features/accounts/members.service.js';
import { dummyHash } from './features/accounts/password-hasher.js';
import { PasswordResetService } from './features/accounts/password-reset.service.js';
import { SessionService } from './features/accounts/sessions.service.js';
import { TeamService } from './features/accounts/team.service.js';
import { AuditLog } from './features/audit/audit-log.js';
import { type AccessTokenKeys, accessTokenKeys } from './features/auth/access-token.js';
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
  accounts: AccountServices;
}

export interface AccountServices {
  login: LoginService;
  sessions: SessionService;
  invitations: InvitationService;
  passwordResets: PasswordResetService;
  team: TeamService;
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
  const tokenKeys = accessTokenKeys(config.CONTROL_JWT_ISSUER, jwtSecret(config), previous);
  const audit = new AuditLog();
  // Accounts: sign-in, sessions, invitations, password reset, members (docs/control-plane.md).
  void dummyHash();
  const email = new EmailOutboxService(db, {
    domain: config.EMAIL_PLATFORM_DOMAIN,
    fromName: config.EMAIL_PLATFORM_FROM_NAME,
  });
  const throttle = new LoginThrottle(db, clock, config);
  const sessions = new SessionService(db, clock, tokenKeys, audit, config);
  const accounts: AccountServices = {
    login: new LoginService(db, throttle, sessions, audit),
    sessions,
    invitations: new InvitationService(db, clock, plans, email, sessions, throttle, audit, config),
    passwordResets: new PasswordResetService(db, clock, email, new RateLimiter(db, clock), audit, throttle, config),
    team: new TeamService(db, clock, plans, audit),
  };
  return {
    config,
    db,
    clock,
    readiness: {},
    tokenKeys,
    plans,
    audit,
    members: new MembersService(plans),
    erps: opts.erps ?? defaultTenantErps(config),
    accounts,
  };
}
