/** The control plane's environment, validated once at start-up (the only reader of process.env here). */
import { emailEnvShape } from '@platform/email';
import { metricsEnvShape } from '@platform/http-kit';
import { type EnvSource, readConfig, sharedEnvShape } from '@platform/kernel';
import { loadStoreConfig, type StoreConfig } from '@platform/storage';
import { type ObjectStore, objectStoreFromEnv } from '@platform/storage';
import { domainCheckEnvShape } from '@platform/tenancy';
import { z } from 'zod';

const publicHost = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, 'must be a lower-case host name');
const port = z.coerce.number().int('must be an integer').min(0).max(65535, 'must be a TCP port (0-65535)');

export const controlEnvSchema = z.object({
  ...sharedEnvShape,
  CONTROL_PORT: port.default(8003),
  CONTROL_HOST: z.string().default('0.0.0.0'),
  /**
   * The platform's tenants host: tenant subdomains are `<slug>.<TENANTS_HOST>` and a custom domain's
   * CNAME must point at it. `*.localhost` resolves to loopback, so the default works on one machine.
   */
  TENANTS_HOST: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'must be a lower-case host name')
    .default('tenants.localhost'),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(10_485_760, 'must be at most 10 MiB')
    .default(262_144),
  /** Fastify trustProxy: unset (trust nobody) or the proxy's addresses/CIDRs, comma-separated. */
  TRUST_PROXY: z.string().optional(),
  /**
   * HMAC key of the access tokens (HS256, pinned). Unset: a key is generated once and kept in
   * DATA_DIR/control-jwt-secret (embedded mode). Rotation: move the old key to
   * CONTROL_JWT_PREVIOUS_SECRETS (comma-separated) for one access-token lifetime.
   */
  CONTROL_JWT_SECRET: z.string().min(32, 'must be at least 32 characters of random').optional(),
  CONTROL_JWT_PREVIOUS_SECRETS: z.string().optional(),
  CONTROL_JWT_ISSUER: z.string().min(1).default('window-platform'),
  ACCESS_TOKEN_TTL_S: z.coerce
    .number()
    .int()
    .min(60, 'must be at least 60')
    .max(3600, 'must be at most 3600')
    .default(900),
  /** The default ERP (tenants without their own routing): the embedded ERP or an Odoo 15. */
  ERP_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL of the ERP (Odoo 15 or the embedded ERP)' })
    .default('http://127.0.0.1:8069'),
  ERP_DB: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'must be an ERP database name')
    .default('platform'),
  ERP_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** Bearer token of the platform operator's endpoints (creating, suspending, deleting tenants); unset: CLI only. */
  CONTROL_OPERATOR_TOKEN: z.string().min(24, 'must be at least 24 characters of random').optional(),
  ...metricsEnvShape,
  /**
   * Jobs: the control plane's public origin, for presigned upload URLs of the embedded object store
   * (`<origin>/objects/...`); default `http://localhost:<CONTROL_PORT>`.
   */
  CONTROL_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  // crm-sales (docs/control-plane.md, "Leads and tickets", "Quotes and price grids", "Customer portal links")
  INTAKE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(60),
  INTAKE_DEDUPE_WINDOW_S: z.coerce.number().int().min(0).max(86_400).default(600),
  PORTAL_LINK_TTL_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(365, 'must be at most 365')
    .default(30),
  QUOTE_DEPOSIT_PERCENT: z.coerce.number().min(0).max(100, 'must be at most 100').default(50),
  // Payments (docs/payments.md): the platform's Stripe key and its Connect webhook's signing secret(s),
  // comma-separated during a roll; STRIPE_API_BASE points the SDK at the local stand-in.
  STRIPE_SECRET_KEY: z.string().min(8, 'must be a Stripe secret key').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(8, 'must be the webhook signing secret (whsec_…)').optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  PORTAL_SIGNATURE_MAX_BYTES: z.coerce.number().int().min(1024).max(2_097_152).default(262_144),
  // Sign-up's bot check (docs/control-plane.md, "Sign-up"): the frontend's settings of the same names.
  // Without a secret the local siteverify stand-in is served at /local-captcha (embedded mode).
  CAPTCHA_SECRET_KEY: z.string().min(8, 'must be the secret key from the bot-check console').optional(),
  CAPTCHA_VERIFY_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  CAPTCHA_MIN_SCORE: z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(0.5),
  CAPTCHA_ALLOWED_HOSTNAMES: z.string().optional(),
  // Domains (docs/control-plane.md, "Domains and resolution"): the platform's own public hosts (the
  // proxy's variables, same defaults) can never be a tenant's custom domain, nor can RESERVED_DOMAINS.
  ERP_DOMAIN: publicHost.default('erp.example.test'),
  LANDING_DOMAIN: publicHost.default('www.example.test'),
  PWA_DOMAIN: publicHost.default('app.example.test'),
  DOCS_DOMAIN: publicHost.default('docs.example.test'),
  RESERVED_DOMAINS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+$/, 'must be comma-separated host names')))
    .optional(),
  /** Shown to the tenant as the deadline of a pending custom domain; the worker enforces it. */
  DOMAIN_VERIFY_DEADLINE_H: domainCheckEnvShape.DOMAIN_VERIFY_DEADLINE_H,
  /**
   * Master password of the embedded ERP's `db` service (provisioning creates each tenant's ERP
   * database with it). Unset: read from DATA_DIR/erp-master-password, which the embedded ERP writes.
   */
  ERP_MASTER_PASSWORD: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Days a deleted tenant's embedded ERP database is kept before `npm run tenants -- purge` drops it. */
  TENANT_PURGE_AFTER_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  // Accounts (docs/control-plane.md, "Accounts").
  /** Refresh tokens: each lives this long after its last use (sliding), within the session's maximum. */
  REFRESH_TOKEN_TTL_S: z.coerce.number().int().min(300).max(31_536_000).default(2_592_000),
  REFRESH_SESSION_MAX_S: z.coerce.number().int().min(300).max(31_536_000).default(7_776_000),
  /** Failed sign-ins allowed per account and per client address before backoff starts. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  LOGIN_MAX_FAILURES_IP: z.coerce.number().int().min(1).max(100_000).default(20),
  /** First lock after the allowance (doubling with each further failure) and its ceiling. */
  LOGIN_LOCK_BASE_S: z.coerce.number().int().min(1).max(3600).default(30),
  LOGIN_LOCK_MAX_S: z.coerce.number().int().min(1).max(86_400).default(900),
  INVITATION_TTL_S: z.coerce.number().int().min(600).max(2_592_000).default(604_800),
  PASSWORD_RESET_TTL_S: z.coerce.number().int().min(300).max(86_400).default(3600),
  /**
   * The origin of tenant hosts in the links the control plane makes (portal, invitation, reset):
   * `{host}` becomes the tenant's host, e.g. `https://{host}`. Unset: the running proxy's HTTPS
   * origin, else the frontend's port (FRONTEND_PUBLIC_PORT, or where `npm start` runs it), else
   * `https://{host}` (features/tenants/tenant-public-origins.ts).
   */
  TENANT_PUBLIC_ORIGIN: z
    .string()
    .regex(/^https?:\/\/\{host\}(:\d{1,5})?\/?$/, 'must be http(s)://{host} with an optional :port')
    .optional(),
  /** The port the frontend serves tenant hosts on when no proxy runs (`npm start` sets it itself). */
  FRONTEND_PUBLIC_PORT: z.coerce.number().int().min(1).max(65535, 'must be a TCP port (1-65535)').optional(),
  /** The reverse proxy's directory (`npm run proxy`): a live `nginx.pid` there means links go through it. */
  PROXY_DIR: z.string().default('./data/proxy'),
  /**
   * Where the links in invitation and password-reset emails point (the frontend's pages); `{slug}`
   * is replaced by the tenant's slug. Unset: the tenant host's public origin (TENANT_PUBLIC_ORIGIN).
   */
  ACCOUNTS_LINK_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s?#]+$/, 'must be an http(s) base URL without query or fragment')
    .optional(),
  EMAIL_PLATFORM_DOMAIN: emailEnvShape.EMAIL_PLATFORM_DOMAIN,
  EMAIL_PLATFORM_FROM_NAME: emailEnvShape.EMAIL_PLATFORM_FROM_NAME,
});

export type ControlConfig = z.infer<typeof controlEnvSchema>;

/** The tenants' object store (signatures): STORAGE_* variables, else DATA_DIR/objects. */
export function loadControlObjectStore(dataDir: string, env: EnvSource = process.env): ObjectStore {
  return objectStoreFromEnv(env, dataDir);
}

export function loadControlConfig(env: EnvSource = process.env): ControlConfig {
  return readConfig(controlEnvSchema, withEmbeddedErpUrl(env));
}

/**
 * Without ERP_URL the default ERP is the embedded one where `npm start` serves it: on ERP_PORT when
 * that is set (a CLI such as `npm run tenants`, run with the same variables as `npm start`, must reach
 * that ERP and record it in the tenants' routings, not port 8069).
 */
function withEmbeddedErpUrl(env: EnvSource): EnvSource {
  const port = Number(env.ERP_PORT?.trim() || NaN);
  if (env.ERP_URL?.trim() || !Number.isInteger(port) || port < 1 || port > 65535) return env;
  return { ...env, ERP_URL: `http://127.0.0.1:${port}` };
}

/** Jobs: the tenants' object store for photos and signatures (STORAGE_*, as packages/storage reads them). */
export function loadControlStorage(env: EnvSource = process.env): StoreConfig {
  return loadStoreConfig(env, 'STORAGE');
}
