/** Recurring jobs, built once by the composition root (deps.ts) on the jobs feature's services. */
import type { Db } from '@platform/db';
import type { Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import type { JobsFeature } from '../jobs/jobs.compose.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import { RecurringJobs } from './recurring.service.js';
import { SeriesGenerator } from './series-generator.js';

export interface RecurringFeature {
  series: RecurringJobs;
  generator: SeriesGenerator;
}

export function composeRecurring(d: {
  db: Db;
  clock: Clock;
  plans: PlanLimits;
  audit: AuditLog;
  jobs: JobsFeature;
}): RecurringFeature {
  return {
    series: new RecurringJobs({ ...d, reader: d.jobs.reader }),
    generator: new SeriesGenerator(d),
  };
}
