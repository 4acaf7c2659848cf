/** The landing host's environment, validated once at start-up (the only reader of process.env here). */
import { metricsEnvShape } from '@platform/http-kit';
import { type EnvSource, readConfig, sharedEnvShape } from '@platform/kernel';
import { isHostnameAllowListEntry } from '@platform/providers';
import { type ObjectStore, objectStoreFromEnv } from '@platform/storage';
import { tenantsHostEnvShape } from '@platform/tenancy';
import { z } from 'zod';

const onOff = z.enum(['on', 'off']).default('off');
const port = z.coerce.number().int('must be an integer').min(0).max(65535, 'must be a TCP port (0-65535)');
const hostnames = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^[a-z0-9.-]+$/, 'must be a comma-separated list of host names')));
// The bot check's allow-list also takes `*.example.com` (its subdomains, not example.com itself).
const hostnamePatterns = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .refine(
          isHostnameAllowListEntry,
          'must be a comma-separated list of host names or *.example.com wildcards (two labels or more after *.)',
        ),
    ),
  );

export const landingEnvSchema = z
  .object({
    LANDING_PORT: port.default(8001),
    LANDING_HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATA_DIR: z.string().default('./data'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SITE_NAME: z.string().min(1).max(60).default('Brightview Blinds'),
    // Public origin of the website, for canonical and Open Graph URLs (https://www.example.com).
    SITE_URL: z
      .url({ protocol: /^https?$/, error: "must be the site's public http(s) origin, like https://www.example.com" })
      .optional(),
    DEFAULT_TENANT_SLUG: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a lowercase slug')
      .default('default'),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024, 'must be at least 1024')
      .max(1_048_576, 'must be at most 1 MiB')
      .default(16_384),
    DEDUPE_WINDOW_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
    TRUST_PROXY: z.string().optional(),
    CAPTCHA_SITE_KEY: z.string().optional(),
    CAPTCHA_SECRET_KEY: z.string().min(8, 'must be the secret key from the bot-check console').optional(),
    CAPTCHA_VERIFY_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    CAPTCHA_TIMEOUT_MS: z.coerce
      .number()
      .int('must be an integer')
      .min(100, 'must be at least 100')
      .max(120_000, 'must be at most 120000')
      .default(3_000),
    CAPTCHA_MIN_SCORE: z.coerce
      .number()
      .min(0, 'must be between 0 and 1')
      .max(1, 'must be between 0 and 1')
      .default(0.5),
    CAPTCHA_ALLOWED_HOSTNAMES: hostnamePatterns.optional(),
    // Tokens the local bot-check stand-in keeps (oldest evicted); benchmarks raise it to their load.
    LOCAL_CAPTCHA_MAX_TOKENS: z.coerce
      .number()
      .int('must be an integer')
      .min(100, 'must be at least 100')
      .max(2_000_000, 'must be at most 2000000')
      .default(10_000),
    MAGNET_SIGNUP: onOff,
    META_PIXEL_ID: z
      .string()
      .regex(/^\d{5,20}$/, 'must be the numeric pixel id')
      .optional(),
    META_ACCESS_TOKEN: z.string().min(10).optional(),
    ...metricsEnvShape,
    // Host → tenant (docs/control-plane.md, "Domains and resolution"): tenant subdomains of
    // TENANTS_HOST and active custom domains resolve; this host's own names serve the default tenant.
    ...tenantsHostEnvShape,
    LANDING_DOMAIN: z
      .string()
      .regex(/^[a-z0-9.-]+$/, 'must be a lowercase host name')
      .default('www.example.test'),
    LANDING_HOSTS: hostnames.optional(),
    // The platform's keyring (as the control plane reads it): it opens the console's draft-preview tokens.
    SECRETS_KEYRING: sharedEnvShape.SECRETS_KEYRING,
    SECRETS_ACTIVE_KEY: sharedEnvShape.SECRETS_ACTIVE_KEY,
  })
  .superRefine((c, ctx) => {
    if (c.CAPTCHA_SECRET_KEY && !c.CAPTCHA_ALLOWED_HOSTNAMES?.length)
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTCHA_ALLOWED_HOSTNAMES'],
        message: 'is required when CAPTCHA_SECRET_KEY is set (the bot-check hostname allow-list)',
      });
    if (c.CAPTCHA_SECRET_KEY && !c.CAPTCHA_SITE_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['CAPTCHA_SITE_KEY'],
        message: 'is required when CAPTCHA_SECRET_KEY is set',
      });
    if (Boolean(c.META_PIXEL_ID) !== Boolean(c.META_ACCESS_TOKEN))
      ctx.addIssue({
        code: 'custom',
        path: ['META_ACCESS_TOKEN'],
        message: 'META_PIXEL_ID and META_ACCESS_TOKEN are set together or not at all',
      });
  });

export type LandingConfig = z.infer<typeof landingEnvSchema>;

export const loadLandingConfig = (env: EnvSource = process.env): LandingConfig => readConfig(landingEnvSchema, env);

/**
 * The tenants' object store, where the control plane puts gallery images: the same STORAGE_*
 * variables (else DATA_DIR/objects), so the landing's /media reads what the editor uploaded.
 */
export const loadLandingObjectStore = (dataDir: string, env: EnvSource = process.env): ObjectStore =>
  objectStoreFromEnv(env, dataDir);
