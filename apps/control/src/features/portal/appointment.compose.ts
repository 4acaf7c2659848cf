/**
 * The customer's appointment link and page, built once by the composition root (deps.ts): the
 * messages scheduler gets `linker` (the {{portal_link}} of job messages), the routes get `page`.
 */
import { type Db, type Queryable } from '@platform/db';
import type { Clock } from '@platform/kernel';
import { portalEnabled, primaryHost } from '@platform/tenancy';

import type { JobsReader } from '../jobs/jobs.service.js';
import type { AppointmentLinker } from '../messages/message-scheduler.js';
import type { TenantPublicOrigins } from '../tenants/tenant-public-origins.js';
import { AppointmentPageService } from './appointment.service.js';
import { APPOINTMENT_PAGE_PATH, AppointmentLinks, tokenOfUrl } from './appointment-links.js';

/** What ControlDeps gets from this feature (deps.ts extends it). */
export interface AppointmentDeps {
  appointments: AppointmentPageService;
}

export function composeAppointments(
  config: { TENANTS_HOST: string },
  p: { db: Db; clock: Clock; jobs: Pick<JobsReader, 'orderOf'>; origins: TenantPublicOrigins },
): { page: AppointmentPageService; linker: AppointmentLinker } {
  const links = new AppointmentLinks();
  // Inside the scheduler's transaction: the link is made with the messages that carry it, or not at all.
  const linker: AppointmentLinker = async (tx: Queryable, tenantId, job, earlier) => {
    if (!(await portalEnabled(tx, tenantId))) return undefined;
    const token = await links.ensure(tx, tenantId, job, p.clock.now(), tokenOfUrl(earlier));
    // The tenant's own host, as the quote's portal links use.
    const host = await primaryHost(tx, tenantId);
    return `${p.origins.origin(host.domain ?? `${host.slug}.${config.TENANTS_HOST}`)}${APPOINTMENT_PAGE_PATH}/${token}`;
  };
  return { page: new AppointmentPageService({ db: p.db, clock: p.clock, links, jobs: p.jobs }), linker };
}
