/** The customer portal and the PDF documents, built once by the composition root (deps.ts). */
import type { Db } from '@platform/db';
import type { Clock } from '@platform/kernel';
import type { ObjectStore } from '@platform/storage';

import type { ControlConfig } from '../../control.config.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { JobsReader } from '../jobs/jobs.service.js';
import type { PlanLimits } from '../plans/plan-limits.service.js';
import type { CurrencyOf } from '../portal/order-won.js';
import { type PortalOptions, PortalService } from '../portal/portal.service.js';
import type { PortalLinks } from '../portal/portal-links.js';
import type { LeadStageMover } from '../sales/quote-sending.service.js';
import type { QuotesService } from '../sales/quotes.service.js';
import { SentQuotePdfs } from '../sales/sent-quote-pdfs.js';
import type { TenantErps } from '../tenants/tenant-erps.js';
import { DocumentsService } from './documents.service.js';

export type { DocumentsService };

export function composePortalAndDocuments(
  config: ControlConfig,
  d: {
    db: Db;
    clock: Clock;
    erps: TenantErps;
    plans: PlanLimits;
    audit: AuditLog;
    objects: ObjectStore;
    quotes: QuotesService;
    links: PortalLinks;
    jobs: JobsReader;
    moveLead: LeadStageMover;
    currencyOf: CurrencyOf;
    depositState: NonNullable<PortalOptions['depositState']>;
  },
): { portal: PortalService; documents: DocumentsService } {
  const portal = new PortalService(
    d.db,
    d.clock,
    d.erps,
    d.quotes,
    d.links,
    d.objects,
    d.audit,
    { signatureMaxBytes: config.PORTAL_SIGNATURE_MAX_BYTES, depositState: d.depositState },
    d.moveLead,
    d.currencyOf,
  );
  const documents = new DocumentsService({
    ...{ db: d.db, plans: d.plans, objects: d.objects, audit: d.audit, quotes: d.quotes, portal, jobs: d.jobs },
    sentPdfs: new SentQuotePdfs(d.db),
    quoteValidDays: config.PORTAL_LINK_TTL_DAYS,
    billing: { erps: d.erps, clock: d.clock },
  });
  return { portal, documents };
}
