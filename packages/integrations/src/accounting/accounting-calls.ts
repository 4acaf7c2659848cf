/**
 * Every call to the provider's API goes through here: a valid token, the provider's limit of 60
 * calls a minute per organisation counted in PostgreSQL (shared by workers), one retry with a
 * refreshed token after a 401, and provider failures turned into what the outbox understands.
 */
import type { Limit, RateLimiter } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import { PermanentFailure, RetryLater } from '@platform/outbox';
import { type AccountingAuth, isAccountingError } from '@platform/providers';

import type { AccountingRow } from '../settings/settings.repo.js';
import { AccountingNotConnected, type AccountingTokens } from './accounting-tokens.js';

export const PROVIDER_LIMIT: Limit = { name: 'accounting-provider', max: 60, windowSeconds: 60 };
/**
 * Jobs of a connection that is not connected (or needs reconnecting) wait this long between looks,
 * without using up attempts: they go through by themselves once an admin connects again.
 */
export const RECONNECT_WAIT_MS = 15 * 60_000;

export class AccountingCalls {
  constructor(
    readonly tokens: AccountingTokens,
    private readonly limiter: RateLimiter,
  ) {}

  /** `cost`: how many provider requests `fn` makes. */
  async call<T>(row: AccountingRow, what: string, fn: (auth: AccountingAuth) => Promise<T>, cost = 1): Promise<T> {
    let auth = await this.authOrWait(row);
    for (let attempt = 0; ; attempt++) {
      for (let i = 0; i < cost; i++) await this.consume(auth.tenantId);
      try {
        return await fn(auth);
      } catch (e) {
        if (isAccountingError(e) && e.kind === 'unauthorized' && attempt === 0) {
          auth = await this.authOrWait(row, auth.accessToken);
          continue;
        }
        if (isAccountingError(e) && e.kind === 'forbidden') {
          // A missing scope or a disconnected organisation: nothing changes until an admin reconnects.
          await this.tokens.needsReconnect(
            row,
            `The accounting provider refused ${what} (${e.message}): the grant lacks a permission or the organisation was disconnected. Disconnect, then connect again.`,
          );
        }
        throw asJobError(e, what);
      }
    }
  }

  async authOrWait(row: AccountingRow, stale?: string): Promise<AccountingAuth> {
    try {
      return await this.tokens.auth(row, stale);
    } catch (e) {
      throw asJobError(e, 'token');
    }
  }

  private async consume(providerTenantId: string): Promise<void> {
    try {
      await this.limiter.consume(PROVIDER_LIMIT, providerTenantId);
    } catch (e) {
      if (e instanceof AppError && e.code === 'RATE_LIMITED') {
        throw new RetryLater(
          'accounting provider: 60 calls a minute per organisation',
          Number(e.details?.['retry_after'] ?? 1) * 1000,
        );
      }
      throw e;
    }
  }
}

/** RetryLater / PermanentFailure for the outbox; anything else is retried with backoff. */
export function asJobError(e: unknown, what: string): unknown {
  if (e instanceof AccountingNotConnected)
    return new RetryLater(`${e.message} (waiting for a reconnect)`, RECONNECT_WAIT_MS);
  if (!isAccountingError(e)) return e;
  if (e.kind === 'rate_limited')
    return new RetryLater(`accounting provider answered 429 (${what})`, (e.retryAfterSeconds ?? 60) * 1000);
  if (e.needsReconnect)
    return new RetryLater(`accounting grant refused (${what}); waiting for a reconnect`, RECONNECT_WAIT_MS);
  if (e.retryable) return e;
  return new PermanentFailure(
    `accounting provider refused ${what}: ${e.kind} ${e.message}${e.details.length ? ` (${e.details.join('; ')})` : ''}`,
    { cause: e },
  );
}
