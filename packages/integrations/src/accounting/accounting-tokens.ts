/**
 * A valid access token per connection. The provider's access tokens live 30 min and its refresh tokens
 * rotate on every use, so two refreshes of the same token set race into `invalid_grant`. Hence:
 * refresh when less than 5 min is left, one refresh at a time per connection — an in-process
 * promise map, and across processes a lease on the connection row (`refresh_lease_until`). No
 * platform transaction is open during the provider call (on the embedded database one would block
 * every other query): the lease is taken in one statement, and the rotated tokens are stored with a
 * compare-and-set on the refresh token that was used, so two refreshers cannot lose a rotated one.
 * Callers that find the lease taken wait for the holder's tokens. A refused grant marks the
 * connection `needs_reconnect` (the spec's "disconnect then connect") and callers wait for that.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type { Db } from '@platform/db';
import { type Clock, systemClock } from '@platform/kernel';
import { type AccountingAuth, type AccountingOAuth, isAccountingError } from '@platform/providers';

import type { IntegrationSettingsService } from '../settings/integration-settings.service.js';
import { type AccountingRow, updateAccounting } from '../settings/settings.repo.js';
import { findById } from './accounting.repo.js';
import { storeAfterRefresh, takeRefreshLease } from './accounting-tokens.repo.js';

export const REFRESH_MARGIN_MS = 5 * 60_000;
/** How long a refresher holds the lease: longer than the provider call may take (its timeout). */
export const REFRESH_LEASE_MS = 30_000;
/** How often a caller that found the lease taken looks for the holder's tokens. */
const LEASE_POLL_MS = 100;

/** The connection cannot be used until an admin connects it (again). */
export class AccountingNotConnected extends Error {
  constructor(
    message: string,
    readonly status: AccountingRow['status'],
  ) {
    super(message);
    this.name = 'AccountingNotConnected';
  }
}

type Column = 'client_secret' | 'webhook_key' | 'access_token' | 'refresh_token' | 'code_verifier';

export class AccountingTokens {
  private readonly inFlight = new Map<string, Promise<AccountingAuth>>();
  /** Number of refresh calls made to the provider (observability and tests). */
  refreshes = 0;

  constructor(
    private readonly db: Db,
    private readonly settings: IntegrationSettingsService,
    private readonly oauth: AccountingOAuth,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Marks the connection `needs_reconnect` (a refused scope or organisation); jobs wait for a reconnect. */
  async needsReconnect(row: AccountingRow, detail: string): Promise<void> {
    await updateAccounting(this.db, row.id, { status: 'needs_reconnect', status_detail: detail });
  }

  open(row: AccountingRow, column: Column, sealed: string): string {
    return this.settings.open(row.tenant_id, 'accounting_connections', column, row.company_id, sealed);
  }

  seal(row: AccountingRow, column: Column, value: string): string {
    return this.settings.seal(row.tenant_id, 'accounting_connections', column, row.company_id, value);
  }

  /**
   * A token with more than 5 min left. `stale`: the provider just refused this access token
   * (expired early, revoked): refresh unless another caller already replaced it.
   */
  async auth(row: AccountingRow, stale?: string): Promise<AccountingAuth> {
    const usable = this.usable(row, stale);
    if (usable) return usable;
    const running = this.inFlight.get(row.id);
    if (running) return running;
    const p = this.refreshLocked(row.id, stale).finally(() => this.inFlight.delete(row.id));
    this.inFlight.set(row.id, p);
    return p;
  }

  private usable(row: AccountingRow, stale: string | undefined): AccountingAuth | undefined {
    if (row.status !== 'connected' || !row.provider_tenant_id) {
      throw new AccountingNotConnected(
        `accounting connection "${row.name}" is ${row.status}${row.status_detail ? `: ${row.status_detail}` : ''}`,
        row.status,
      );
    }
    if (!row.access_token_enc || !row.token_expires_at) return undefined;
    if (new Date(row.token_expires_at).getTime() - this.clock.now().getTime() <= REFRESH_MARGIN_MS) return undefined;
    const accessToken = this.open(row, 'access_token', row.access_token_enc);
    return accessToken === stale ? undefined : { accessToken, tenantId: row.provider_tenant_id };
  }

  private async refreshLocked(id: string, stale: string | undefined): Promise<AccountingAuth> {
    // Waits at most one lease and a bit: then the holder is gone and its lease has expired.
    const giveUpAt = Date.now() + REFRESH_LEASE_MS + 5_000;
    for (;;) {
      const row = await findById(this.db, id);
      if (!row) throw new AccountingNotConnected('accounting connection is gone', 'disconnected');
      // Another caller (or worker) may have refreshed while we waited.
      const fresh = this.usable(row, stale);
      if (fresh) return fresh;
      const used = row.refresh_token_enc;
      if (!used)
        throw new AccountingNotConnected(`accounting connection "${row.name}" has no refresh token`, row.status);
      if (await takeRefreshLease(this.db, id, used, REFRESH_LEASE_MS)) {
        const auth = await this.refreshHeld(row, used);
        if (auth) return auth;
      } else if (Date.now() > giveUpAt) {
        throw new Error(`accounting connection "${row.name}": token refresh still held by another worker`);
      } else await sleep(LEASE_POLL_MS);
    }
  }

  /** Refreshes with the lease held; undefined when the row changed meanwhile (the caller reads it again). */
  private async refreshHeld(row: AccountingRow, used: string): Promise<AccountingAuth | undefined> {
    try {
      this.refreshes++;
      const t = await this.oauth.refresh({
        clientId: row.client_id,
        clientSecret: this.open(row, 'client_secret', row.client_secret_enc),
        refreshToken: this.open(row, 'refresh_token', used),
      });
      const stored = await storeAfterRefresh(this.db, row.id, used, {
        access_token_enc: this.seal(row, 'access_token', t.accessToken),
        refresh_token_enc: this.seal(row, 'refresh_token', t.refreshToken),
        token_expires_at: t.expiresAt,
      });
      return stored ? { accessToken: t.accessToken, tenantId: row.provider_tenant_id! } : undefined;
    } catch (e) {
      if (!isAccountingError(e) || (e.kind !== 'invalid_grant' && e.kind !== 'invalid_client')) {
        await storeAfterRefresh(this.db, row.id, used, {}).catch(() => undefined); // gives the lease back
        throw e;
      }
      const detail =
        e.kind === 'invalid_grant'
          ? 'The accounting provider refused the refresh token (expired, revoked or reused): disconnect, then connect again.'
          : 'The accounting provider refused the Client ID / Client Secret: correct them, then connect again.';
      const marked = await storeAfterRefresh(this.db, row.id, used, {
        status: 'needs_reconnect',
        status_detail: detail,
        access_token_enc: null,
        token_expires_at: null,
      });
      if (!marked) return undefined; // connected again meanwhile: that refusal was about the old grant
      throw new AccountingNotConnected(detail, 'needs_reconnect');
    }
  }
}
