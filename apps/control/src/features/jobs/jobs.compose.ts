/** The parts of /jobs, built once by the composition root (deps.ts). */
import type { Db } from '@platform/db';
import type { Clock } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';

import type { AuditLog } from '../audit/audit-log.js';
import type { BranchesService } from '../branches/branches.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { JobCommands } from './job-commands.service.js';
import { JobDownloads } from './job-downloads.service.js';
import { JobHistory } from './job-history.service.js';
import type { JobCompletion } from './job-order-change.js';
import { JobRecords } from './job-records.service.js';
import { JobsReader } from './jobs.service.js';

export interface JobsFeature {
  reader: JobsReader;
  commands: JobCommands;
  records: JobRecords;
  downloads: JobDownloads;
  history: JobHistory;
}

export function composeJobs(d: {
  db: Db;
  erps: TenantErps;
  plans: PlanLimits;
  audit: AuditLog;
  clock: Clock;
  objects: ObjectStore;
  branches?: Pick<BranchesService, 'scope'>;
  completion?: () => JobCompletion;
}): JobsFeature {
  const reader = new JobsReader(d);
  return {
    reader,
    commands: new JobCommands(d, reader),
    records: new JobRecords(d, reader),
    downloads: new JobDownloads(d, reader),
    history: new JobHistory(d, reader),
  };
}
