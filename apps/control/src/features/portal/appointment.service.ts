/**
 * The customer's appointment page (docs/portal.md, "Appointment page"): what the link of a job's
 * messages opens on the tenant's host. Unknown, expired, revoked and other-tenant tokens, and a job
 * gone from the ERP, all get the portal's one PORTAL_LINK_INVALID. A cancelled job still answers:
 * the page says it is cancelled. The token is never logged or audited.
 */
import type { AppointmentStage, PortalAppointmentAnswer } from '@platform/contracts/appointment.js';
import { DEFAULT_TIME_ZONE } from '@platform/contracts/branding.js';
import { type Db, withTenant } from '@platform/db';
import { AppError, type Clock } from '@platform/kernel';
import { getTenantSettings, tenantBranding } from '@platform/tenancy';
import ical, { ICalEventStatus } from 'ical-generator';

import type { JobsReader } from '../jobs/jobs.service.js';
import type { ErpJob, StageKey } from '../jobs/jobs.types.js';
import { appointmentWords } from '../messages/message-time.js';
import type { AppointmentLinks } from './appointment-links.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const invalid = () =>
  new AppError('PORTAL_LINK_INVALID', 'This link is not valid any more. Ask the company for a new one.');

const STAGE: Record<StageKey, AppointmentStage> = {
  new: 'scheduled',
  scheduled: 'scheduled',
  travel: 'on_the_way',
  on_site: 'on_the_way',
  done: 'done',
  cancelled: 'cancelled',
};

export interface AppointmentPageParts {
  db: Db;
  clock: Clock;
  links: AppointmentLinks;
  jobs: Pick<JobsReader, 'orderOf'>;
}

export class AppointmentPageService {
  constructor(private readonly p: AppointmentPageParts) {}

  /** The job behind a live link on its own tenant's host, with the link's expiry; else the one 404. */
  private async open(hostTenant: string | undefined, token: string) {
    if (!hostTenant || !UUID.test(hostTenant)) throw invalid();
    const now = this.p.clock.now();
    const l = await withTenant(this.p.db, hostTenant, (tx) => this.p.links.find(tx, token, now));
    if (!l) throw invalid();
    const order = await this.p.jobs.orderOf(l.tenant_id, l.job_id);
    // A job unscheduled since has no appointment to show: the same page as a dead link.
    if (!order?.scheduledStart) throw invalid();
    return { tenantId: l.tenant_id, jobId: l.job_id, expiresAt: l.expires_at, order, start: order.scheduledStart };
  }

  async view(hostTenant: string | undefined, token: string): Promise<PortalAppointmentAnswer> {
    const { tenantId, order, start, expiresAt } = await this.open(hostTenant, token);
    const { brand, timeZone } = await withTenant(this.p.db, tenantId, async (tx) => ({
      brand: await tenantBranding(tx, tenantId),
      timeZone: (await getTenantSettings(tx, tenantId))?.time_zone ?? DEFAULT_TIME_ZONE,
    }));
    const words = appointmentWords(
      Date.parse(start),
      order.scheduledEnd ? Date.parse(order.scheduledEnd) : undefined,
      timeZone,
    );
    return {
      appointment: {
        start: new Date(start).toISOString(),
        end: order.scheduledEnd ? new Date(order.scheduledEnd).toISOString() : null,
        ...words,
        time_zone: timeZone,
        technician: order.personName?.trim().split(/\s+/)[0] || null,
        address: addressLine(order),
        stage: STAGE[order.stage.key],
      },
      company: { name: brand.company_name, phone: brand.phone, email: brand.email },
      link: { expires_at: expiresAt.toISOString() },
    };
  }

  /** "Add to calendar": one event, the company's name and phone in it; cancelled as cancelled. */
  async ics(hostTenant: string | undefined, token: string): Promise<string> {
    const { tenantId, jobId, order, start } = await this.open(hostTenant, token);
    const brand = await withTenant(this.p.db, tenantId, (tx) => tenantBranding(tx, tenantId));
    const from = new Date(start);
    const cal = ical({ prodId: { company: 'window-platform', product: 'appointment' } });
    cal.createEvent({
      id: `${jobId}@appointments`,
      start: from,
      end: order.scheduledEnd ? new Date(order.scheduledEnd) : new Date(from.getTime() + 3_600_000),
      summary: `Appointment with ${brand.company_name}`,
      location: addressLine(order) || null,
      description: [brand.phone ? `To change it, call ${brand.phone}` : '', brand.email ?? '']
        .filter(Boolean)
        .join('\n'),
      ...(order.stage.key === 'cancelled' ? { status: ICalEventStatus.CANCELLED } : {}),
    });
    return cal.toString();
  }
}

const addressLine = (o: ErpJob) =>
  [o.address.street, o.address.city, o.address.zip].filter((s) => !!s?.trim()).join(', ');
