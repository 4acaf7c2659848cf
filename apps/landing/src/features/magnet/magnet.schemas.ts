import { z } from 'zod';

/** The magnet sign-up body. `swatch` needs a postal address (the rule production never ran). */
export const magnetSchema = z
  .object({
    email: z.string().trim().max(254, 'must be at most 254 characters').pipe(z.email('must be an email address')),
    magnet_type: z.enum(['swatch', 'price_guide', 'lookbook'], 'must be one of swatch, price_guide, lookbook'),
    form_source: z.string().max(200, 'must be at most 200 characters').optional(),
    address: z.string().trim().max(300, 'must be at most 300 characters').optional(),
    captcha_token: z.string().max(4096).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.magnet_type === 'swatch' && !v.address)
      ctx.addIssue({
        code: 'custom',
        path: ['address'],
        message: 'is required for swatch',
        params: { rule: 'required_for_swatch' },
      });
  });

export type MagnetInput = z.infer<typeof magnetSchema>;
