import { z } from 'zod';

const opt = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).optional();

/** A browser-side Lead event relayed to the Conversions API; `event_id` is shared with the pixel. */
export const capiLeadSchema = z.object({
  event_name: z.literal('Lead', 'must be Lead').default('Lead'),
  event_id: z.string().regex(/^[A-Za-z0-9_.:-]{8,100}$/, 'must be 8 to 100 letters, digits or _ . : -'),
  event_source_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000),
  event_time: z.number().int('must be whole Unix seconds').positive().optional(),
  email: z.string().trim().max(254).pipe(z.email('must be an email address')).optional(),
  phone: opt(30),
  first_name: opt(100),
  last_name: opt(100),
  fbc: opt(500),
  fbp: opt(500),
  content_name: opt(200),
});

export type CapiLeadInput = z.infer<typeof capiLeadSchema>;
