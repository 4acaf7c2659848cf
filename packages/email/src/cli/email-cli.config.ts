/** Environment of `npm run email` (the only reader of process.env for the CLI). */
import { activeKeyIdEnv, databaseEnvShape, type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

import { emailEnvShape, refineEmailConfig } from '../email.config.js';

export const emailCliEnvSchema = z
  .object({
    ...databaseEnvShape,
    SECRETS_KEYRING: z.string().optional(),
    SECRETS_ACTIVE_KEY: activeKeyIdEnv('SECRETS_KEYRING'),
    ...emailEnvShape,
  })
  .superRefine((c, ctx) => refineEmailConfig(c, ctx));

export type EmailCliConfig = z.infer<typeof emailCliEnvSchema>;
export const loadEmailCliConfig = (env: EnvSource = process.env): EmailCliConfig => readConfig(emailCliEnvSchema, env);
