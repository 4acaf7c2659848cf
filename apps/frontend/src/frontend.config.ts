/** The frontend's environment, validated once at start-up (the only reader of process.env here). */
import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

const port = z.coerce.number().int('must be an integer').min(0).max(65535, 'must be a TCP port (0-65535)');

export const frontendEnvSchema = z.object({
  FRONTEND_PORT: port.default(8000),
  FRONTEND_HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Where the control plane answers; the browser never sees it (the frontend forwards /api/control/*). */
  CONTROL_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) base URL of the control plane' })
    .default('http://127.0.0.1:8003'),
  /** Tenant subdomains are `<slug>.<TENANTS_HOST>` (the control plane's setting of the same name). */
  TENANTS_HOST: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'must be a lower-case host name')
    .default('tenants.localhost'),
  /**
   * Hosts served as the default tenant of a single-company install (comma-separated). Any other host
   * that is neither a tenant's domain nor `<slug>.<TENANTS_HOST>` gets the not-found page.
   */
  DEFAULT_TENANT_HOSTS: z.string().default('localhost,127.0.0.1,[::1]'),
  /** Largest body forwarded to the control plane (a resized photo goes through it when uploads are local). */
  FRONTEND_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(52_428_800, 'must be at most 50 MiB')
    .default(15_728_640),
  /** Fastify trustProxy: unset (trust nobody) or the proxy's addresses/CIDRs, comma-separated. */
  TRUST_PROXY: z.string().optional(),
  // The contact page's bot check, the landing host's settings of the same names (reCAPTCHA v3).
  // Without a secret the local siteverify stand-in is mounted at /local-captcha (embedded mode).
  CAPTCHA_SITE_KEY: z.string().optional(),
  CAPTCHA_SECRET_KEY: z.string().min(8, 'must be the secret key from the bot-check console').optional(),
  CAPTCHA_VERIFY_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  CAPTCHA_MIN_SCORE: z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(0.5),
  /** Host names a bot-check token may come from (comma-separated); required with CAPTCHA_SECRET_KEY. */
  CAPTCHA_ALLOWED_HOSTNAMES: z.string().optional(),
});

export type FrontendConfig = z.infer<typeof frontendEnvSchema>;

export function loadFrontendConfig(env: EnvSource = process.env): FrontendConfig {
  return readConfig(frontendEnvSchema, env);
}
