/** Request schemas of /jobs/{id}/measurements (failures name the field and rule). */
import { z } from 'zod';

const id = z.uuid({ error: 'must be a UUID' });
const eighths = (field: string) =>
  z
    .number()
    .positive()
    .max(600)
    .refine((n) => Number.isInteger(n * 8), {
      message: `${field} must be in whole 1/8 inches (e.g. 36.125)`,
      params: { rule: 'eighth_inch' },
    });

export const measurementParams = z.object({ id, measurement_id: id });

export const measurementBody = z.strictObject({
  room: z.string().trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
  product_code: z.string().trim().min(1, 'is required').max(40, 'must be at most 40 characters'),
  width_in: eighths('width_in'),
  drop_in: eighths('drop_in'),
  mount: z.enum(['inside', 'outside']),
  colour: z.string().trim().max(40, 'must be at most 40 characters').default(''),
  options: z.array(z.string().min(1).max(40)).max(20, 'must have at most 20 options').default([]),
  notes: z.string().trim().max(2000, 'must be at most 2000 characters').default(''),
});
