/**
 * Customer messages (docs/messages.md), built once by the composition root: the scheduler the other
 * features tell, the periodic sender (control.server.ts runs it), the office's settings and timeline.
 */
import { type Db, withTenant } from '@platform/db';
import type { EmailOutboxService } from '@platform/email';
import type { IntegrationSettingsService } from '@platform/integrations';
import type { Clock } from '@platform/kernel';

import type { AuditLog } from '../audit/audit-log.js';
import { readOrders } from '../jobs/erp/fsm-orders.js';
import type { JobMessages } from '../jobs/job-order-change.js';
import type { JobsFeature } from '../jobs/jobs.compose.js';
import type { ErpJob } from '../jobs/jobs.types.js';
import { quotesFirstOpened } from '../portal/portal-links.js';
import { defaultSmsLineOf } from '../sales/quote-sms-line.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { type AppointmentLinker, type JobFacts, MessageScheduler } from './message-scheduler.js';
import { MessageSender } from './message-sender.js';
import { MessagesService } from './messages.service.js';

export interface MessagesFeature {
  scheduler: MessageScheduler;
  sender: MessageSender;
  office: MessagesService;
  /** What the jobs feature tells (jobs.compose.ts `messages`). */
  jobs: JobMessages;
  /** Supply's receipts: every window of the sale order arrived, its jobs' customers are told once. */
  readyToFit(tenantId: string, saleOrderId: number): Promise<void>;
}

/** ControlDeps' share (deps.ts extends it). */
export interface MessagesDeps {
  messages: MessagesFeature;
}

export function composeMessages(d: {
  db: Db;
  clock: Clock;
  erps: TenantErps;
  audit: AuditLog;
  email: EmailOutboxService;
  /** The tenant's default SMS line (texts go from it; none: email only). */
  integrations: IntegrationSettingsService;
  jobs: Pick<JobsFeature, 'reader'>;
  /** A phone as E.164 (the SMS path's normaliser), undefined when it is not one. */
  normalize(raw: string): string | undefined;
  /** The customer's appointment page of a scheduled job (the portal's), the {{portal_link}} of job messages. */
  appointmentLink?: AppointmentLinker;
}): MessagesFeature {
  const scheduler = new MessageScheduler(d.clock, d.normalize, d.appointmentLink);
  return {
    scheduler,
    sender: new MessageSender({
      ...d,
      lineOf: defaultSmsLineOf(d.integrations),
      quotesOpened: quotesFirstOpened,
    }),
    office: new MessagesService(d.db, d.audit, d.erps),
    readyToFit: async (tenantId, saleOrderId) => {
      const erp = await d.erps.forTenant(tenantId);
      const orders = await readOrders(erp, await erp.search('fsm.order', [['sale_id', '=', saleOrderId]]));
      const jobIds = await d.jobs.reader.idsForOrders(
        tenantId,
        orders.map((o) => o.erpId),
      );
      await withTenant(d.db, tenantId, async (tx) => {
        for (const o of orders) {
          const id = jobIds.get(o.erpId);
          if (id) await scheduler.readyToFit(tx, tenantId, factsOf(id, o));
        }
      });
    },
    jobs: {
      jobChanged: (tx, tenantId, jobId, order, m) => {
        const facts = factsOf(jobId, order);
        if (m.what === 'on_my_way') return scheduler.onMyWay(tx, tenantId, facts, m.etaMinutes);
        if (m.what === 'scheduled') return scheduler.jobScheduled(tx, tenantId, facts);
        if (m.what === 'cancelled') return scheduler.jobCancelled(tx, tenantId, jobId);
        return scheduler.jobCompleted(tx, tenantId, facts);
      },
    },
  };
}

const factsOf = (jobId: string, o: ErpJob): JobFacts => ({
  jobId,
  saleOrderId: o.saleOrderId,
  partnerId: o.customer?.id ?? null,
  name: o.customer?.name ?? null,
  phone: o.customer?.phone ?? null,
  email: o.customer?.email ?? null,
  start: o.scheduledStart,
  end: o.scheduledEnd,
  technician: o.personName,
});
