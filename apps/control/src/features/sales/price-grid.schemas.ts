/** Request shapes of /sales/price-grids and /sales/quotes, with the grid rules a dealer would expect. */
import { z } from 'zod';

export const productCode = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'must be a product code (lower-case letters, digits, - and _)');

const eighths = z.number().refine((x) => Number.isInteger(x * 8), {
  message: 'must be in whole 1/8 inches',
  params: { rule: 'eighth_inch' },
});
const bandSize = eighths.refine((x) => x > 0 && x <= 600, {
  message: 'must be more than 0 and at most 600 inches',
  params: { rule: 'range' },
});
const money = z
  .number()
  .positive('must be more than 0')
  .max(1_000_000, 'must be at most 1000000')
  .refine((x) => Number.isInteger(Math.round(x * 100 * 1e6) / 1e6), {
    message: 'must have at most 2 decimals',
    params: { rule: 'cents' },
  });

const ascending = (list: number[], ctx: z.RefinementCtx, path: string) => {
  for (let i = 1; i < list.length; i++)
    if (!(list[i]! > list[i - 1]!))
      ctx.addIssue({
        code: 'custom',
        path: ['bands', path, i],
        message: 'bands must be in ascending order, each larger than the one before',
        params: { rule: 'ascending' },
      });
};

export const priceGridBody = z
  .object({
    name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
    bands: z.object({
      widths_in: z.array(bandSize).min(1, 'needs at least one band').max(60, 'must have at most 60 bands'),
      drops_in: z.array(bandSize).min(1, 'needs at least one band').max(60, 'must have at most 60 bands'),
      prices: z.array(z.array(money)),
    }),
    options: z
      .array(
        z.object({
          code: productCode,
          name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
          price: z.number().min(0, 'must be 0 or more').max(1_000_000, 'must be at most 1000000'),
        }),
      )
      .max(50, 'must have at most 50 options')
      .default([]),
    mount_allowance_in: z
      .object({
        inside: eighths.refine((x) => x >= 0 && x <= 12, {
          message: 'must be 0 to 12 inches',
          params: { rule: 'range' },
        }),
        outside: eighths.refine((x) => x >= 0 && x <= 12, {
          message: 'must be 0 to 12 inches',
          params: { rule: 'range' },
        }),
      })
      .default({ inside: 0, outside: 0 }),
  })
  .superRefine((g, ctx) => {
    ascending(g.bands.widths_in, ctx, 'widths_in');
    ascending(g.bands.drops_in, ctx, 'drops_in');
    if (g.bands.prices.length !== g.bands.drops_in.length)
      ctx.addIssue({
        code: 'custom',
        path: ['bands', 'prices'],
        message: `must have one row per drop band (${g.bands.drops_in.length})`,
        params: { rule: 'shape' },
      });
    g.bands.prices.forEach((row, d) => {
      if (row.length !== g.bands.widths_in.length)
        ctx.addIssue({
          code: 'custom',
          path: ['bands', 'prices', d],
          message: `must have one price per width band (${g.bands.widths_in.length})`,
          params: { rule: 'shape' },
        });
    });
    const seen = new Set<string>();
    g.options.forEach((o, i) => {
      if (seen.has(o.code))
        ctx.addIssue({
          code: 'custom',
          path: ['options', i, 'code'],
          message: 'option codes must be unique',
          params: { rule: 'unique' },
        });
      seen.add(o.code);
    });
  });

export type PriceGridBody = z.infer<typeof priceGridBody>;

const measurement = z.number().positive('must be more than 0').max(600, 'must be at most 600 inches');
const shortText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

export const quoteLine = z.object({
  product_code: productCode,
  room: shortText(60).min(1, 'is required'),
  width_in: measurement,
  drop_in: measurement,
  mount: z.enum(['inside', 'outside'], 'must be inside or outside'),
  colour: shortText(60).min(1, 'is required'),
  options: z.array(productCode).max(20, 'must have at most 20 options').default([]),
});

export const quoteBody = z
  .object({
    partner_id: z.number().int().positive('must be a customer id').optional(),
    customer: z
      .object({
        name: shortText(100).min(1, 'is required'),
        email: z.email('must be an email address').max(254).optional(),
        phone: shortText(30).optional(),
        street: shortText(200).optional(),
        city: shortText(100).optional(),
        zip: shortText(10).optional(),
      })
      .optional(),
    lines: z.array(quoteLine).min(1, 'needs at least one window').max(100, 'must have at most 100 windows'),
    note: shortText(2000).optional(),
    lead_id: z.number().int().positive('must be a lead id').optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.partner_id === undefined) === (q.customer === undefined))
      for (const path of ['partner_id', 'customer'])
        ctx.addIssue({
          code: 'custom',
          path: [path],
          message: 'give either partner_id or customer (one of them)',
          params: { rule: 'one_of' },
        });
  });

export type QuoteBody = z.infer<typeof quoteBody>;
