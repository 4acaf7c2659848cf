/**
 * Scheduled re-verification of sending domains (the worker runs it every EMAIL_DOMAIN_CHECK_MS):
 * a domain whose records were removed or changed becomes `failed` and its tenant's mail goes from the
 * platform's domain again, instead of failing SPF/DKIM at the recipient; a pending domain whose
 * records appeared becomes verified without anyone running `domain verify`.
 */
import type { Queryable } from '@platform/db';
import { sendingDomainStates } from '@platform/tenancy';

import type { SendingDomainService } from './sending-domains.service.js';

export async function recheckDomains(
  db: Queryable,
  domains: SendingDomainService,
  log?: { warn(o: object, m?: string): void },
): Promise<{ checked: number; changed: number }> {
  const rows = await sendingDomainStates(db);
  let changed = 0;
  for (const row of rows) {
    try {
      const { domain } = await domains.verify(row.tenant_id);
      if (domain.status !== row.status) changed++;
    } catch (err) {
      log?.warn({ err, tenant_id: row.tenant_id }, 'sending-domain check failed; will try again next round');
    }
  }
  return { checked: rows.length, changed };
}

/** Runs `recheckDomains` every `intervalMs` (0: never); the timer does not keep the process alive. */
export function scheduleDomainChecks(run: () => Promise<unknown>, intervalMs: number): { stop(): void } {
  if (intervalMs <= 0) return { stop() {} };
  const timer = setInterval(() => void run().catch(() => undefined), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
