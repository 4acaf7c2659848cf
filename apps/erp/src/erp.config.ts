/** The only place the ERP process reads its environment. */
import { emailEnvShape, refineEmailConfig } from '@platform/email/email.config.js';
import { metricsEnvShape } from '@platform/http-kit';
import { type EnvSource, readConfig, sharedEnvShape } from '@platform/kernel';
import { z } from 'zod';

const int = (min: number, max: number) =>
  z.coerce.number().int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

export const erpEnvSchema = z
  .object({
    ...sharedEnvShape,
    ERP_PORT: z.coerce.number().int().min(0).max(65535).default(8069),
    ERP_HOST: z.string().default('0.0.0.0'),
    ERP_DB: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_]{0,49}$/, 'must be lowercase letters, digits and _')
      .default('platform'),
    ERP_ADMIN_PASSWORD: z.string().optional(),
    /**
     * Master password of the `db` service (Odoo's admin_passwd: create_database, drop), which the
     * control plane's provisioning uses. Unset: generated once into DATA_DIR/erp-master-password.
     */
    ERP_MASTER_PASSWORD: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Idle lifetime of a web session (/web/session/authenticate), seconds; Odoo keeps a week. */
    ERP_SESSION_TTL_S: int(60, 90 * 86_400).default(7 * 86_400),
    // REST API (docs/rest-api.md)
    RESTAPI: z.enum(['on', 'off'], 'must be on or off').default('on'),
    /** Public base URL of this host (the OAuth issuer), e.g. https://erp.example.com; else taken from the request. */
    ERP_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be the http(s) base URL of this host' }).optional(),
    /** An outside ERP (Odoo 15) for the REST API to front instead of the embedded one. */
    RESTAPI_ERP_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of the ERP' }).optional(),
    DEFAULT_TENANT_SLUG: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a lowercase slug')
      .default('default'),
    RESTAPI_RATE_LIMIT: int(1, 100_000).default(120),
    RESTAPI_RATE_WINDOW_S: int(1, 3600).default(60),
    RESTAPI_PAGE_SIZE: int(1, 10_000).default(80),
    RESTAPI_MAX_PAGE_SIZE: int(1, 10_000).default(500),
    OAUTH_CODE_TTL_S: int(10, 600).default(300),
    OAUTH_ACCESS_TOKEN_TTL_S: int(60, 3600).default(900),
    OAUTH_REFRESH_TOKEN_TTL_S: int(600, 365 * 86_400).default(30 * 86_400),
    // Email provider webhooks (docs/email.md)
    ...emailEnvShape,
    /** ERP logins allowed to connect and disconnect the accounting provider (comma-separated). */
    ACCT_ADMIN_LOGINS: z
      .string()
      .regex(/^[^,\s]+(\s*,\s*[^,\s]+)*$/, 'must be a comma-separated list of ERP logins')
      .default('admin'),
    ...metricsEnvShape,
  })
  .superRefine((c, ctx) => {
    refineEmailConfig(c, ctx);
    if (c.RESTAPI_ERP_URL && !c.ERP_API_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['ERP_API_KEY'],
        message: 'is required with RESTAPI_ERP_URL (the service account key on that ERP)',
      });
    if (c.RESTAPI_PAGE_SIZE > c.RESTAPI_MAX_PAGE_SIZE)
      ctx.addIssue({ code: 'custom', path: ['RESTAPI_PAGE_SIZE'], message: 'must not exceed RESTAPI_MAX_PAGE_SIZE' });
  });

export type ErpConfig = z.infer<typeof erpEnvSchema>;

export const loadErpConfig = (env: EnvSource = process.env): ErpConfig => readConfig(erpEnvSchema, env);
