/** Environment of the db package's own CLI (`npm run migrate`). */
import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

export const dbEnvSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().default('./data'),
});

export const loadDbConfig = (env: EnvSource = process.env) => readConfig(dbEnvSchema, env);
