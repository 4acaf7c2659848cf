/** The docs site's environment (the only reader of process.env in apps/docs). */
import { metricsEnvShape } from '@platform/http-kit';
import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

export const docsEnvSchema = z.object({
  DOCS: z.enum(['on', 'off'], 'must be on or off').default('on'),
  DOCS_PORT: z.coerce.number().int('must be an integer').min(0).max(65535, 'must be a port number').default(8002),
  DOCS_HOST: z.string().default('127.0.0.1'),
  /** HTTP Basic user; the password is DOCS_PASSWORD or one generated into DATA_DIR/docs-password. */
  DOCS_USER: z
    .string()
    .regex(/^[^:]{1,64}$/, 'must be 1-64 characters without a colon')
    .default('docs'),
  DOCS_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  /** `off` when the reverse proxy's access rule guards the site instead (docs/docs-site.md). */
  DOCS_AUTH: z.enum(['basic', 'off'], 'must be basic or off').default('basic'),
  DOCS_DIST: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ...metricsEnvShape,
});

export type DocsConfig = z.infer<typeof docsEnvSchema>;

export const loadDocsConfig = (env: EnvSource = process.env): DocsConfig => readConfig(docsEnvSchema, env);
