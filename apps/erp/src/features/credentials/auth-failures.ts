/**
 * Every failed authentication (bad API key, token, client secret or consent login) is audited and
 * counted per client IP; past the limit the caller gets 429 instead (anti-automation, ASVS 2.4.1).
 */
import type { AuditEntry, AuditService } from '@platform/credentials';
import type { RateLimiter } from '@platform/http-kit';

export const AUTH_FAILURE_LIMIT = { name: 'restapi-auth-fail', max: 30, windowSeconds: 60 };
/** Consent logins are password checks: every attempt counts, per IP and per login. */
export const LOGIN_ATTEMPT_LIMIT = { name: 'restapi-login', max: 10, windowSeconds: 60 };

export class AuthFailures {
  private readonly loginLimit: { name: string; max: number; windowSeconds: number };

  constructor(
    private readonly audit: AuditService,
    private readonly limiter: RateLimiter,
    loginLimit?: { max: number; windowSeconds: number },
  ) {
    this.loginLimit = { ...LOGIN_ATTEMPT_LIMIT, ...loginLimit };
  }

  /** Audits, then throws RATE_LIMITED when this IP failed too often. */
  async record(clientIp: string, entry: Omit<AuditEntry, 'event' | 'clientIp'>): Promise<void> {
    await this.audit.record({ ...entry, event: 'auth_failed', clientIp });
    await this.limiter.consume(AUTH_FAILURE_LIMIT, clientIp);
  }

  async loginAttempt(clientIp: string, login: string): Promise<void> {
    await this.limiter.consume(this.loginLimit, `ip:${clientIp}`);
    await this.limiter.consume(this.loginLimit, `login:${login.toLowerCase()}`);
  }
}
