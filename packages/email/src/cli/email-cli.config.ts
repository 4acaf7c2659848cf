/** Environment of `npm run email` (the only reader of process.env for the CLI). */
import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

import { emailEnvShape, refineEmailConfig } from '../email.config.js';

export const emailCliEnvSchema = z
  .object({
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATA_DIR: z.string().default('./data'),
    SECRETS_KEYRING: z.string().optional(),
    SECRETS_ACTIVE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be the id of a key in SECRETS_KEYRING')
      .optional(),
    ...emailEnvShape,
  })
  .superRefine((c, ctx) => refineEmailConfig(c, ctx));

export type EmailCliConfig = z.infer<typeof emailCliEnvSchema>;
export const loadEmailCliConfig = (env: EnvSource = process.env): EmailCliConfig => readConfig(emailCliEnvSchema, env);
