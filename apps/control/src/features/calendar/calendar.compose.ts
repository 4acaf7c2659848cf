/**
 * The calendar feature (technicians' calendar feeds), built here so the composition root stays
 * within its size: deps.ts adds one line.
 */
import { type Db, withTenant } from '@platform/db';
import type { Clock } from '@platform/kernel';
import type { SecretBox } from '@platform/secrets';
import { primaryHost } from '@platform/tenancy';

import type { JobsReader } from '../jobs/jobs.service.js';
import type { TenantPublicOrigins } from '../tenants/tenant-public-origins.js';
import { CalendarFeedService } from './calendar.service.js';

/** What ControlDeps gets from this feature (deps.ts extends it). */
export interface CalendarDeps {
  calendar: CalendarFeedService;
}

export function composeCalendar(
  config: { TENANTS_HOST: string },
  p: { db: Db; clock: Clock; box: SecretBox; jobs: Pick<JobsReader, 'list'>; origins: TenantPublicOrigins },
): CalendarFeedService {
  return new CalendarFeedService({
    db: p.db,
    clock: p.clock,
    box: p.box,
    jobs: p.jobs,
    // The tenant's own host, as the portal's and checkout's links use.
    origin: async (tenantId) => {
      const host = await withTenant(p.db, tenantId, (tx) => primaryHost(tx, tenantId));
      return p.origins.origin(host.domain ?? `${host.slug}.${config.TENANTS_HOST}`);
    },
  });
}
