/** Request schemas of /jobs/{id}/series (a refused rule is VALIDATION_FAILED naming `rule`). */
import { z } from 'zod';

import { readRule } from './series-rule.js';

/** An RFC 5545 RRULE line, stored without its `RRULE:` prefix. */
const rule = z
  .string()
  .max(500, 'must be at most 500 characters')
  .superRefine((text, ctx) => {
    const r = readRule(text);
    if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error, params: { rule: 'rrule' } });
  })
  .transform((text) => text.trim().replace(/^RRULE:/i, ''));

const title = z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters');
const horizon = z.number().int().min(1, 'must be 1 to 36 months').max(36, 'must be 1 to 36 months');

export const createSeriesBody = z.strictObject({ rule, title, horizon_months: horizon.optional() });
export const updateSeriesBody = z
  .strictObject({ rule: rule.optional(), title: title.optional(), horizon_months: horizon.optional() })
  .refine((b) => b.rule !== undefined || b.title !== undefined || b.horizon_months !== undefined, {
    message: 'give rule, title or horizon_months',
    path: ['rule'],
    params: { rule: 'required_one_of' },
  });
export const previewBody = z.strictObject({ rule });
