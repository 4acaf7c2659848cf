/** Construction of the accounts feature: sign-in, sessions, invitations, password reset, team (docs/control-plane.md). */
import type { Db } from '@platform/db';
import { RateLimiter } from '@platform/http-kit';
import type { Clock } from '@platform/kernel';

import { InvitationService } from './invitations.service.js';
import { LoginService } from './login.service.js';
import { LoginThrottle } from './login-throttle.js';
import { PasswordResetService } from './password-reset.service.js';
import { PendingInvitations } from './pending-invitations.service.js';
import { SessionService } from './sessions.service.js';
import { TeamService } from './team.service.js';

export interface AccountServices {
  login: LoginService;
  sessions: SessionService;
  invitations: InvitationService;
  /** Open invitations on the team screen: list, resend, revoke. */
  pendingInvitations: PendingInvitations;
  passwordResets: PasswordResetService;
  team: TeamService;
}

type SessionArgs = ConstructorParameters<typeof SessionService>;
type InvitationArgs = ConstructorParameters<typeof InvitationService>;

export interface AccountParts {
  db: Db;
  clock: Clock;
  config: SessionArgs[4] & ConstructorParameters<typeof LoginThrottle>[2];
  tokenKeys: SessionArgs[2];
  audit: SessionArgs[3];
  plans: InvitationArgs[2];
  email: InvitationArgs[3];
  linkConfig: InvitationArgs[7] & ConstructorParameters<typeof PasswordResetService>[6];
}

export function composeAccounts(p: AccountParts): AccountServices {
  const { db, clock, audit, email, linkConfig } = p;
  const throttle = new LoginThrottle(db, clock, p.config);
  const sessions = new SessionService(db, clock, p.tokenKeys, audit, p.config);
  const limiter = new RateLimiter(db, clock);
  return {
    login: new LoginService(db, throttle, sessions, audit),
    sessions,
    invitations: new InvitationService(db, clock, p.plans, email, sessions, throttle, audit, linkConfig),
    pendingInvitations: new PendingInvitations(db, clock, email, limiter, audit, linkConfig),
    passwordResets: new PasswordResetService(db, clock, email, limiter, audit, throttle, linkConfig),
    team: new TeamService(db, clock, p.plans, audit),
  };
}
