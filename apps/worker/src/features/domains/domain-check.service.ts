/**
 * The DNS check of custom domains (docs/control-plane.md, "Domains and resolution"). One pass claims
 * the pending domains due for a look (FOR UPDATE SKIP LOCKED, with a lease) and asks the configured
 * resolver for each one's CNAME:
 *   - it points at the tenants host: `cname_seen_at` is recorded and the certificate step may begin;
 *   - the DNS answered otherwise (another target, no CNAME, no such name): still waiting, with the
 *     reason in `check_error`; once DOMAIN_VERIFY_DEADLINE_H hours have passed since the domain was
 *     added or last retried, the domain is `failed` with `failure_reason`;
 *   - the DNS did not answer (timeout, SERVFAIL): "could not check", never a failure, looked at again.
 */
import type { Db } from '@platform/db';
import { claimDueChecks, type CnameLookup, type DueCheck, recordCheck } from '@platform/tenancy';

export interface DomainCheckPolicy {
  tenantsHost: string;
  deadlineMs: number;
  recheckMs: number;
  batchSize: number;
  leaseMs: number;
}

export interface CheckPassResult {
  seen: string[];
  waiting: string[];
  couldNotCheck: string[];
  failed: string[];
}

export class DomainCheckService {
  constructor(
    private readonly db: Db,
    private readonly lookup: CnameLookup,
    private readonly policy: DomainCheckPolicy,
    /** Called with each domain whose CNAME was just seen (the certificate step can start at once). */
    private readonly onSeen: (d: { domain: string; tenantId: string }) => Promise<void> = async () => {},
  ) {}

  async runOnce(now = new Date()): Promise<CheckPassResult> {
    const result: CheckPassResult = { seen: [], waiting: [], couldNotCheck: [], failed: [] };
    const lease = new Date(now.getTime() + this.policy.leaseMs);
    const due = await claimDueChecks(this.db, now, lease, this.policy.batchSize);
    // Looks run side by side: one slow name server must not hold up the other tenants' domains.
    await Promise.all(due.map((d) => this.check(d, now, result)));
    return result;
  }

  private async check(d: DueCheck, now: Date, result: CheckPassResult): Promise<void> {
    const target = this.policy.tenantsHost;
    const answer = await this.lookup.cname(d.domain);
    const nextCheckAt = new Date(now.getTime() + this.policy.recheckMs);
    if (answer.kind === 'found' && answer.targets.includes(target)) {
      if (await recordCheck(this.db, d, { outcome: 'seen', now })) {
        result.seen.push(d.domain);
        await this.onSeen({ domain: d.domain, tenantId: d.tenant_id });
      }
      return;
    }
    if (answer.kind === 'unknown') {
      const error = `could not check: ${answer.detail}`;
      if (await recordCheck(this.db, d, { outcome: 'not_yet', error, now, nextCheckAt }))
        result.couldNotCheck.push(d.domain);
      return;
    }
    const error =
      answer.kind === 'found'
        ? `the CNAME of ${d.domain} points at ${answer.targets.join(', ')}, not ${target}`
        : `${answer.detail}; expected a CNAME to ${target}`;
    const deadline = d.verify_started_at.getTime() + this.policy.deadlineMs;
    if (now.getTime() < deadline) {
      if (await recordCheck(this.db, d, { outcome: 'not_yet', error, now, nextCheckAt })) result.waiting.push(d.domain);
      return;
    }
    const hours = Math.round(this.policy.deadlineMs / 3_600_000);
    const reason = `${error} ${hours} hours after the domain was added or last retried`;
    if (await recordCheck(this.db, d, { outcome: 'failed', error, reason, now })) result.failed.push(d.domain);
  }
}
