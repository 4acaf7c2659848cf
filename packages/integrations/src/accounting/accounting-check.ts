/**
 * "Send a test" of the accounting connection: one read at the provider with the tenant's grant
 * (a contact look-up, which every granted scope set allows), through AccountingCalls so the token is
 * refreshed, the provider's rate limit counted and a refused grant marked `needs_reconnect`.
 */
import type { Db } from '@platform/db';
import type { AccountingApi } from '@platform/providers';

import { findAccounting } from '../settings/settings.repo.js';
import type { AccountingCalls } from './accounting-calls.js';

export class AccountingCheck {
  constructor(
    private readonly db: Db,
    private readonly api: AccountingApi,
    private readonly calls: AccountingCalls,
  ) {}

  /** Undefined when the tenant has no accounting connection configured. */
  async check(tenantId: string, companyId = 1): Promise<{ ok: boolean; detail: string } | undefined> {
    const row = await findAccounting(this.db, tenantId, companyId);
    if (!row) return undefined;
    if (row.status !== 'connected')
      return { ok: false, detail: row.status_detail ?? 'Not connected: press Connect and approve the access first.' };
    try {
      await this.calls.call(row, 'the connection check', (auth) =>
        this.api.findContacts(auth, { contactNumber: 'platform-connection-check' }),
      );
      return { ok: true, detail: `The provider answered a read for ${row.provider_tenant_name ?? row.name}.` };
    } catch (e) {
      return { ok: false, detail: `The provider did not answer the read: ${(e as Error).message}` };
    }
  }
}
