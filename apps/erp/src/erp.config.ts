/** The only place the ERP process reads its environment. */
import { z } from 'zod';
import { readConfig, type EnvSource } from '@platform/kernel';

export const erpEnvSchema = z.object({
  ERP_PORT: z.coerce.number().int().min(0).max(65535).default(8069),
  ERP_HOST: z.string().default('0.0.0.0'),
  ERP_DB: z.string().regex(/^[a-z0-9][a-z0-9_]{0,49}$/, 'must be lowercase letters, digits and _').default('platform'),
  ERP_ADMIN_PASSWORD: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type ErpConfig = z.infer<typeof erpEnvSchema>;

export const loadErpConfig = (env: EnvSource = process.env): ErpConfig => readConfig(erpEnvSchema, env);
