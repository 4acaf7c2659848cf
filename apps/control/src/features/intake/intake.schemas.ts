/** Bodies of POST /leads and POST /helpdesk/tickets (the public forms' fields, plus tenant_id and source). */
import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const optional = (max: number) =>
  text(max)
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v));
const phone = optional(30).refine((v) => v === undefined || /^\+?[0-9 ().-]{7,30}$/.test(v), {
  message: 'must be a phone number (digits, spaces, + ( ) - .)',
  params: { rule: 'format' },
});
const email = optional(254).refine((v) => v === undefined || z.email().safeParse(v).success, {
  message: 'must be an email address',
  params: { rule: 'format' },
});
const tenantId = z.uuid({ error: 'must be a UUID' });

/** The attribution hidden fields (declared once in the contracts). */
export { ATTRIBUTION_FIELDS as ATTRIBUTION_KEYS } from '@platform/contracts/attribution-fields.js';

export const leadBody = z
  .object({
    tenant_id: tenantId,
    source: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_:-]{0,59}$/, 'must be a short source name (e.g. phone, walk-in, referral, api)'),
    name: text(100).min(1, 'is required'),
    email,
    phone,
    zip: optional(10),
    message: optional(2000),
    products: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'must be a product slug'))
      .max(20, 'must list at most 20 products')
      .default([]),
    form_source: optional(200),
    gclid: optional(200),
    gbraid: optional(200),
    wbraid: optional(200),
    fbclid: optional(200),
    utm_source: optional(200),
    utm_medium: optional(200),
    utm_campaign: optional(200),
    utm_term: optional(200),
    utm_content: optional(200),
    lp_slug: optional(200),
  })
  .superRefine((v, ctx) => {
    if (!v.phone && !v.email)
      for (const path of ['phone', 'email'])
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: 'give a phone number or an email address',
          params: { rule: 'required_one_of' },
        });
  });

export const ticketBody = z.object({
  tenant_id: tenantId,
  source: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_:-]{0,59}$/, 'must be a short source name')
    .default('control'),
  name: text(100).min(1, 'is required'),
  email: text(254).pipe(z.email('must be an email address')),
  phone,
  subject: text(150).min(1, 'is required'),
  description: text(5000).min(1, 'is required'),
});

export type LeadBody = z.infer<typeof leadBody>;
export type TicketBody = z.infer<typeof ticketBody>;
