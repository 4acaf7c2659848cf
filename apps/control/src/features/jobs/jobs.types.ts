/** The shapes of /jobs (control-plane contract: `Job`), shared by the service, the ERP side and the routes. */

export {
  ATTACHMENT_KINDS,
  type AttachmentKind,
  type Job,
  JOB_KIND_NAMES,
  JOB_KINDS,
  type JobCustomer,
  type JobKind,
  type JobWindow,
  STAGE_KEYS,
  type StageKey,
} from '@platform/contracts/job.js';
import type { JobCustomer, StageKey } from '@platform/contracts/job.js';

/** An FSM order as read from the tenant's ERP, in platform terms (ISO instants, stage keys). */
export interface ErpJob {
  erpId: number;
  name: string;
  /** With `id` and `email` when read for one job; a list row has the name and phone only. */
  customer: JobCustomer | null;
  address: { street: string | null; city: string | null; zip: string | null };
  scheduledStart: string | null;
  scheduledEnd: string | null;
  stage: { id: number; name: string; key: StageKey };
  personId: number | null;
  personName: string | null;
  resolution: string | null;
  saleOrderId: number | null;
  /** The order's ERP write_date as ISO: the job's version (one-second resolution, as Odoo's). */
  version: string;
}
