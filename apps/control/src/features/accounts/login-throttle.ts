/**
 * Backoff after repeated failed sign-ins, per account and per client address, counted in
 * PostgreSQL so every replica shares it. The account key is a hash of the email as typed, so an
 * address without an account is throttled exactly like one with an account (the 429 tells nothing).
 * Every attempt is counted before the password is checked (concurrent guesses cannot slip past the
 * count); a success clears the account's counter and gives the address its attempt back.
 */
import { createHash } from 'node:crypto';

import type { Db } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';

import {
  clearKey,
  countAttempt,
  lockedUntil,
  pruneThrottles,
  type ThrottleRule,
  uncountAttempt,
} from './login-throttle.repo.js';

export interface ThrottleConfig {
  LOGIN_MAX_FAILURES: number;
  LOGIN_MAX_FAILURES_IP: number;
  LOGIN_LOCK_BASE_S: number;
  LOGIN_LOCK_MAX_S: number;
}

const QUIET_S = 3600;

export interface AttemptKeys {
  account: string;
  ip: string;
}

export class LoginThrottle {
  private readonly account: ThrottleRule;
  private readonly ip: ThrottleRule;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    c: ThrottleConfig,
  ) {
    const lock = { baseLockS: c.LOGIN_LOCK_BASE_S, maxLockS: c.LOGIN_LOCK_MAX_S, quietS: QUIET_S };
    this.account = { allowed: c.LOGIN_MAX_FAILURES, ...lock };
    this.ip = { allowed: c.LOGIN_MAX_FAILURES_IP, ...lock };
  }

  keys(email: string, ip: string): AttemptKeys {
    return {
      account: `account:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`,
      ip: `ip:${ip}`,
    };
  }

  /** Counts the attempt, or refuses it with LOGIN_THROTTLED (Retry-After) while a key is locked. */
  async attempt(k: AttemptKeys): Promise<void> {
    const now = this.clock.now();
    for (const [key, rule] of [
      [k.ip, this.ip],
      [k.account, this.account],
    ] as const) {
      if (await countAttempt(this.db, key, now, rule)) continue;
      const until = (await lockedUntil(this.db, key)) ?? now;
      const retryAfter = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
      throw new AppError('LOGIN_THROTTLED', `Too many failed sign-ins; try again in ${retryAfter} s.`, {
        details: { retry_after: retryAfter },
      });
    }
    // Cheap housekeeping now and then, so counters of long-gone attackers do not pile up.
    if (Math.random() < 0.01) await pruneThrottles(this.db, now);
  }

  async succeeded(k: AttemptKeys): Promise<void> {
    await clearKey(this.db, k.account);
    await uncountAttempt(this.db, k.ip, this.ip.allowed);
  }

  /** A password reset ends any lock of the account. */
  async clearAccount(email: string): Promise<void> {
    await clearKey(this.db, this.keys(email, '').account);
  }
}
