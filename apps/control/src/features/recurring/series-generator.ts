/**
 * Makes the occurrences of active series into real jobs, up to each series' horizon ahead. Each is
 * made through the jobs feature's create (the same as POST /jobs: counted against the month's job
 * limit when it is made) under an Idempotency-Key of the series and date, and then recorded once per
 * (series, date): a retried pass, or two processes at once, never make a job twice (the second
 * either replays the first's answer or finds the key in progress and leaves it). A month that is
 * full leaves the occurrence waiting, said on the series, and the next pass tries again.
 * The control plane runs it periodically (control.server.ts); tenants without the plan feature are
 * skipped, so a downgrade stops new occurrences and removes nothing.
 */
import { type Db, withTenant } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';

import type { Principal } from '../auth/principal.js';
import type { JobsFeature } from '../jobs/jobs.compose.js';
import type { Job } from '../jobs/jobs.types.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import * as repo from './recurring.repo.js';
import { addMonths, dayOf, occurrences } from './series-rule.js';

export interface GeneratorDeps {
  db: Db;
  clock: Clock;
  plans: PlanLimits;
  jobs: Pick<JobsFeature, 'reader' | 'commands'>;
}

export class SeriesGenerator {
  constructor(private readonly d: GeneratorDeps) {}

  /** One pass over every active series of every tenant; a series that fails does not stop the others. */
  async runAll(onError: (err: unknown, seriesId: string) => void = () => {}): Promise<{ made: number }> {
    let made = 0;
    for (const s of await repo.activeSeries(this.d.db)) {
      try {
        made += await this.run(s.tenant_id, s.id);
      } catch (err) {
        onError(err, s.id);
      }
    }
    return { made };
  }

  /** Makes the series' due occurrences; how many jobs this pass made. */
  async run(tenantId: string, seriesId: string): Promise<number> {
    const s = await withTenant(this.d.db, tenantId, async (tx) => {
      const row = await repo.seriesById(tx, seriesId);
      const plan = await this.d.plans.plan(tx, tenantId);
      return row?.status === 'active' && plan.features.recurring_jobs ? row : undefined;
    });
    if (!s) return 0;
    // The series' maker stands for it; the audit names the system.
    const principal: Principal = { userId: s.created_by, tenantId, role: 'office', email: 'recurring@platform' };
    const job = await this.d.jobs.reader.get(principal, s.source_job_id).catch((e: unknown) => {
      if (e instanceof AppError && e.code === 'NOT_FOUND') return undefined;
      throw e;
    });
    if (!job?.customer || !job.address.street) {
      await this.wait(tenantId, s, 'source_missing', null);
      return 0;
    }
    const made = await withTenant(this.d.db, tenantId, (tx) => repo.occurrencesOf(tx, s.id));
    const madeDays = new Set(made.map((m) => m.date));
    const due = occurrences(s.rule, s.starts_at, s.rule_since, addMonths(this.d.clock.now(), s.horizon_months)).filter(
      (d) => !madeDays.has(dayOf(d)),
    );
    let n = 0;
    for (const at of due) {
      const day = dayOf(at);
      const answer = await this.d.jobs.commands
        .create(
          { principal, actor: { kind: 'system' }, idempotencyKey: `series:${s.id}:${day}` },
          occurrenceOf(job, at, s.duration_minutes),
        )
        .catch(async (e: unknown) => {
          if (!(e instanceof AppError)) throw e;
          if (e.code === 'PLAN_LIMIT_REACHED') await this.wait(tenantId, s, 'job_limit', day);
          else if (e.code !== 'IDEMPOTENCY_REQUEST_IN_PROGRESS') throw e;
          return undefined; // full month, or another pass is making this one: stop here
        });
      if (!answer) return n;
      const jobId = (answer.body as { id: string }).id;
      await withTenant(this.d.db, tenantId, (tx) =>
        repo.insertOccurrence(tx, { tenantId, seriesId: s.id, date: day, jobId }),
      );
      if (!answer.replayed) n += 1;
    }
    if (s.waiting_reason) await this.wait(tenantId, s, null, null);
    return n;
  }

  private wait(tenantId: string, s: repo.SeriesRow, reason: repo.SeriesRow['waiting_reason'], date: string | null) {
    if (s.waiting_reason === reason && s.waiting_date === date) return Promise.resolve();
    return withTenant(this.d.db, tenantId, (tx) => repo.setWaiting(tx, s.id, { reason, date }));
  }
}

/** The job of one occurrence: the source job's kind, customer, address and windows at the occurrence's time. */
function occurrenceOf(job: Job, at: Date, minutes: number) {
  return {
    partner_id: job.customer!.id,
    address: {
      street: job.address.street ?? '',
      city: job.address.city ?? '',
      zip: job.address.zip ?? '',
      ...(job.address.state ? { state: job.address.state } : {}),
    },
    scheduled_start: at.toISOString(),
    scheduled_end: new Date(at.getTime() + minutes * 60_000).toISOString(),
    windows: job.windows,
    // A repeated service visit stays one (an install's body is as it was before kinds: same request).
    ...(job.kind && job.kind !== 'install' ? { kind: job.kind } : {}),
  };
}
