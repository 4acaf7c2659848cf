/** Request schemas of /jobs (validated by the route catalogue; failures name the field and rule). */
import { ETA_MINUTES } from '@platform/contracts/job.js';
import { z } from 'zod';

import { pageQuery } from '../../openapi/routes.js';
import { ATTACHMENT_KINDS, JOB_KINDS, STAGE_KEYS } from './jobs.types.js';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');
const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with offset' });
const dateOrInstant = z.union([date, instant], { error: 'must be a date YYYY-MM-DD or an ISO 8601 date-time' });
const eighths = (field: string) =>
  z
    .number()
    .positive()
    .max(600)
    .refine((n) => Number.isInteger(n * 8), {
      message: `${field} must be in 1/8 inch`,
      params: { rule: 'eighth_inch' },
    });
const id = z.uuid({ error: 'must be a UUID' });

export const jobIdParams = z.object({ id });
export const checklistParams = z.object({
  id,
  item_id: z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be a checklist item id'),
});

export const listQuery = z
  .object({
    date: date.optional(),
    from: dateOrInstant.optional(),
    to: dateOrInstant.optional(),
    technician_id: id.optional(),
    stage: z.enum(STAGE_KEYS).optional(),
    kind: z.enum(JOB_KINDS).optional(),
    branch: z.uuid({ error: 'must be a branch id' }).optional(),
    ...pageQuery,
  })
  .refine((q) => !(q.date && (q.from || q.to)), {
    message: 'give date, or from/to, not both',
    path: ['date'],
    params: { rule: 'exclusive' },
  });

export const windowSchema = z.strictObject({
  room: z.string().trim().min(1).max(60),
  product: z.string().trim().min(1).max(80),
  width_in: eighths('width_in'),
  drop_in: eighths('drop_in'),
  mount: z.enum(['inside', 'outside']),
  colour: z.string().trim().max(40).default(''),
});

export const createBody = z
  .strictObject({
    customer: z
      .strictObject({
        name: z.string().trim().min(1).max(120),
        phone: z.string().trim().min(3).max(40).optional(),
        email: z.email({ error: 'must be an email address' }).max(254).optional(),
      })
      .optional(),
    partner_id: z.number().int().positive().optional(),
    /** What the visit is for; `install` when not given. */
    kind: z.enum(JOB_KINDS).optional(),
    address: z.strictObject({
      street: z.string().trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
      city: z.string().trim().min(1, 'is required').max(80, 'must be at most 80 characters'),
      zip: z.string().trim().min(1, 'is required').max(20, 'must be at most 20 characters'),
      state: z.string().trim().min(1).max(40, 'must be at most 40 characters').optional(),
    }),
    scheduled_start: instant.optional(),
    scheduled_end: instant.optional(),
    technician_id: id.optional(),
    windows: z.array(windowSchema).max(100).optional(),
    sale_order_id: z.number().int().positive().optional(),
  })
  .refine((b) => !!b.customer !== !!b.partner_id, {
    message: 'give either customer or partner_id',
    path: ['customer'],
    params: { rule: 'one_of' },
  })
  .refine(
    (b) => !b.scheduled_end || (!!b.scheduled_start && Date.parse(b.scheduled_end) > Date.parse(b.scheduled_start)),
    {
      message: 'scheduled_end needs scheduled_start and must be after it',
      path: ['scheduled_end'],
      params: { rule: 'after_start' },
    },
  );

export const scheduleBody = z.strictObject({
  scheduled_start: instant,
  scheduled_end: instant,
  route_order: z.number().int().min(0).max(10_000).optional(),
});
export const assignBody = z.strictObject({ technician_id: id });
/** `eta_minutes` with `travel` is the field app's "On my way": the customer is texted the estimate. */
export const stageBody = z.strictObject({
  stage: z.enum(STAGE_KEYS),
  eta_minutes: z.union(ETA_MINUTES.map((n) => z.literal(n))).optional(),
});
export const completeBody = z.strictObject({ resolution: z.string().trim().min(1).max(4000) });
export const noteBody = z.strictObject({ body: z.string().trim().min(1).max(4000) });
export const checklistBody = z.strictObject({ done: z.boolean() });
export const uploadBody = z.strictObject({
  kind: z.enum(ATTACHMENT_KINDS),
  content_type: z.string().max(100),
  bytes: z.number().int().positive(),
});
export const downloadBody = z.strictObject({ key: z.string().min(1, 'is required').max(300) });
export const attachmentBody = z.strictObject({
  key: z.string().min(1).max(300),
  kind: z.enum(ATTACHMENT_KINDS),
  /** A measure job's photo of one measured window. */
  measurement_id: id.optional(),
});
