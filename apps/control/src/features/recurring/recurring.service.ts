/**
 * Recurring jobs (plan feature `recurring_jobs`): a series on a job, its edits, pause, resume and
 * end, and how it reads. Making the occurrences is the generator's (series-generator.ts). Creating
 * and resuming need the feature; pausing and ending never do, so a downgraded tenant can still stop
 * its series. A series whose tenant lost the feature reads as `paused_by_plan`.
 */
import {
  DEFAULT_HORIZON_MONTHS,
  type JobSeries,
  type JobSeriesAnswer,
  type SeriesStatus,
} from '@platform/contracts/job-series.js';
import { type Db, type Queryable, withTenant } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';
import { cheapestPlanWith } from '@platform/tenancy';

import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import type { JobsReader } from '../jobs/jobs.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import * as repo from './recurring.repo.js';
import { dayOf, nextOccurrences } from './series-rule.js';
import { stateOf } from './series-state.js';

export interface SeriesDeps {
  db: Db;
  clock: Clock;
  plans: PlanLimits;
  audit: AuditLog;
  reader: JobsReader;
}

export interface SeriesChange {
  rule?: string | undefined;
  title?: string | undefined;
  horizon_months?: number | undefined;
}

const FEATURE = 'recurring_jobs';
const HOUR = 3_600_000;
const noSeries = () => new AppError('NOT_FOUND', 'This job does not repeat.');

export class RecurringJobs {
  constructor(private readonly d: SeriesDeps) {}

  /** The job's series (made from it, or the one it is an occurrence of) and whether the plan includes them. */
  async get(p: Principal, jobId: string): Promise<JobSeriesAnswer> {
    await this.d.reader.load(p, jobId);
    return withTenant(this.d.db, p.tenantId, async (tx) => {
      const s = await repo.seriesOfJob(tx, jobId);
      return {
        series: s ? await this.view(tx, s) : null,
        feature: { included: await this.included(tx, p.tenantId), required_plan: cheapestPlanWith(FEATURE) },
      };
    });
  }

  async create(p: Principal, jobId: string, b: { rule: string; title: string; horizon_months?: number | undefined }) {
    const job = (await this.d.reader.load(p, jobId)).order;
    if (!job.scheduledStart)
      throw new AppError('VALIDATION_FAILED', 'Schedule the job before it repeats: its time starts the series.', {
        fieldIssues: [{ field: 'job', rule: 'scheduled', message: 'the job needs a scheduled time to repeat' }],
      });
    const start = new Date(job.scheduledStart);
    const end = job.scheduledEnd ? new Date(job.scheduledEnd) : new Date(start.getTime() + 2 * HOUR);
    return withTenant(this.d.db, p.tenantId, async (tx) => {
      await this.d.plans.assertFeature(tx, p.tenantId, FEATURE);
      const existing = await repo.seriesOfJob(tx, jobId);
      const made = existing
        ? undefined
        : await repo.insertSeries(tx, {
            tenant_id: p.tenantId,
            source_job_id: jobId,
            rule: b.rule,
            title: b.title,
            horizon_months: b.horizon_months ?? DEFAULT_HORIZON_MONTHS,
            starts_at: start,
            duration_minutes: Math.max(1, Math.round((end.getTime() - start.getTime()) / 60_000)),
            created_by: p.userId,
            now: this.d.clock.now(),
          });
      if (!made)
        throw new AppError('JOB_SERIES_EXISTS', 'This job already repeats: edit its series.', {
          details: { series_id: existing?.id },
        });
      await this.audit(tx, p, 'job.series.create', made.id, { rule: b.rule, job_id: jobId });
      return this.view(tx, made);
    });
  }

  /**
   * The whole series: a new rule applies to occurrences not generated yet, from after the last one
   * made (jobs already made stay as they are; each is a normal job to move or cancel).
   */
  async update(p: Principal, jobId: string, c: SeriesChange): Promise<JobSeries> {
    return this.change(
      p,
      jobId,
      'job.series.update',
      async (tx, s) => {
        if (c.rule === undefined || c.rule === s.rule)
          return repo.updateSeries(tx, s.id, { ...c, now: this.d.clock.now() });
        const made = await repo.occurrencesOf(tx, s.id);
        const last = made.length ? new Date(`${made.at(-1)!.date}T23:59:59Z`) : s.rule_since;
        const now = this.d.clock.now();
        return repo.updateSeries(tx, s.id, { ...c, rule_since: last > now ? last : now, now });
      },
      { ...c },
    );
  }

  pause(p: Principal, jobId: string) {
    return this.setStatus(p, jobId, 'paused');
  }

  /** Needs the feature: a downgraded tenant's series stays paused. */
  resume(p: Principal, jobId: string) {
    return this.setStatus(p, jobId, 'active');
  }

  /** Final: nothing more is made; the jobs made stay. */
  end(p: Principal, jobId: string) {
    return this.setStatus(p, jobId, 'ended');
  }

  /** The next dates a rule would give this job (for the screen, before saving). */
  async preview(p: Principal, jobId: string, rule: string): Promise<{ dates: string[] }> {
    const { order } = await this.d.reader.load(p, jobId);
    const start = new Date(order.scheduledStart ?? this.d.clock.now());
    return { dates: nextOccurrences(rule, start, this.d.clock.now(), 5).map((d) => d.toISOString()) };
  }

  private setStatus(p: Principal, jobId: string, status: SeriesStatus) {
    return this.change(
      p,
      jobId,
      `job.series.${status === 'active' ? 'resume' : status === 'paused' ? 'pause' : 'end'}`,
      async (tx, s) => {
        if (status === 'active') await this.d.plans.assertFeature(tx, p.tenantId, FEATURE);
        if (s.status === status) return s;
        return repo.updateSeries(tx, s.id, { status, now: this.d.clock.now() });
      },
      { status },
    );
  }

  private async change(
    p: Principal,
    jobId: string,
    action: string,
    fn: (tx: Queryable, s: repo.SeriesRow) => Promise<repo.SeriesRow>,
    detail: Record<string, unknown>,
  ): Promise<JobSeries> {
    await this.d.reader.load(p, jobId);
    return withTenant(this.d.db, p.tenantId, async (tx) => {
      const s = await repo.seriesOfJob(tx, jobId);
      if (!s) throw noSeries();
      if (s.status === 'ended')
        throw new AppError('JOB_SERIES_ENDED', 'This series was ended; make a new one on a job.', {
          details: { series_id: s.id },
        });
      const next = await fn(tx, s);
      await this.audit(tx, p, action, s.id, detail);
      return this.view(tx, next);
    });
  }

  private async included(tx: Queryable, tenantId: string): Promise<boolean> {
    return (await this.d.plans.plan(tx, tenantId)).features[FEATURE];
  }

  private async view(tx: Queryable, s: repo.SeriesRow): Promise<JobSeries> {
    const plan = await this.d.plans.plan(tx, s.tenant_id);
    const made = await repo.occurrencesOf(tx, s.id);
    const { state, reason } = stateOf(s, plan.features[FEATURE], plan.limits.jobs_per_month);
    const madeDays = new Set(made.map((m) => m.date));
    const now = this.d.clock.now();
    const after = s.rule_since > now ? s.rule_since : now;
    const next =
      s.status === 'ended' ? [] : nextOccurrences(s.rule, s.starts_at, after, 5, (d) => !madeDays.has(dayOf(d)));
    return {
      id: s.id,
      job_id: s.source_job_id,
      rule: s.rule,
      title: s.title,
      horizon_months: s.horizon_months,
      status: s.status,
      state,
      reason,
      next_dates: next.map((d) => d.toISOString()),
      occurrences: made,
    };
  }

  private audit(tx: Queryable, p: Principal, action: string, id: string, detail: Record<string, unknown>) {
    return this.d.audit.record(tx, {
      tenantId: p.tenantId,
      actor: { kind: 'user', id: p.userId },
      action,
      target: { type: 'job_series', id },
      detail,
    });
  }
}
