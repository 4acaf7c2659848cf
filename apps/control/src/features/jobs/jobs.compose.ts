/** The parts of /jobs, built once by the composition root (deps.ts). */
import type { PriceGrid } from '@platform/contracts/window-pricing.js';
import type { Db } from '@platform/db';
import type { Clock } from '@platform/kernel';
import { AppError } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';

import type { AuditLog } from '../audit/audit-log.js';
import type { BranchesService } from '../branches/branches.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { JobCommands } from './job-commands.service.js';
import { JobDownloads } from './job-downloads.service.js';
import { JobHistory } from './job-history.service.js';
import type { JobCompletion, JobMessages } from './job-order-change.js';
import { JobRecords } from './job-records.service.js';
import { JobsReader } from './jobs.service.js';
import { MeasurementsService, type MeasureSales } from './measurements.service.js';

export interface JobsFeature {
  reader: JobsReader;
  commands: JobCommands;
  records: JobRecords;
  downloads: JobDownloads;
  history: JobHistory;
  /** A measure job's windows and its draft quote (absent where sales are not composed: some tests). */
  measurements: MeasurementsService;
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
  messages?: () => JobMessages;
  /** The price grids and quotes (PriceGridsService, QuotesService). */
  grids?: { list(tenantId: string): Promise<PriceGrid[]> };
  quotes?: Pick<MeasureSales, 'draftFromMeasurements'>;
}): JobsFeature {
  const reader = new JobsReader(d);
  return {
    reader,
    commands: new JobCommands(d, reader),
    records: new JobRecords(d, reader),
    downloads: new JobDownloads(d, reader),
    history: new JobHistory(d, reader),
    measurements: new MeasurementsService(d, reader, measureSales(d)),
  };
}

/** Sales as measuring sees it; without it (a jobs-only composition) measuring answers it is not set up. */
function measureSales(d: {
  grids?: { list(t: string): Promise<PriceGrid[]> };
  quotes?: Pick<MeasureSales, 'draftFromMeasurements'>;
}): MeasureSales {
  const absent = () => new AppError('INTERNAL', 'Measuring needs the sales feature, which is not composed here.');
  return {
    grids: (t) => (d.grids ? d.grids.list(t) : Promise.reject(absent())),
    draftFromMeasurements: (p, draft) =>
      d.quotes ? d.quotes.draftFromMeasurements(p, draft) : Promise.reject(absent()),
  };
}
