/**
 * Settings every process that resolves hosts or checks tenant domains shares (control plane, landing
 * host, worker): declared once, spread into each app's config schema. No process.env here.
 */
import { z } from 'zod';

const hostName = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const dnsServer = /^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-f:]+\](:\d{1,5})?|[0-9a-f:]+)$/i;

export const tenantsHostEnvShape = {
  /**
   * The platform's tenants host: tenant subdomains are `<slug>.<TENANTS_HOST>` and a custom domain's
   * CNAME must point at it. `*.localhost` resolves to loopback, so the default works on one machine.
   */
  TENANTS_HOST: z.string().regex(hostName, 'must be a lower-case host name').default('tenants.localhost'),
};

export const domainCheckEnvShape = {
  ...tenantsHostEnvShape,
  /** Resolvers for the CNAME check, `ip[:port]` comma-separated; unset: the system's resolvers. */
  DNS_SERVERS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(dnsServer, 'must be comma-separated ip[:port] addresses')).min(1))
    .optional(),
  /** Hours a custom domain's CNAME may stay wrong before the domain is `failed`. */
  DOMAIN_VERIFY_DEADLINE_H: z.coerce
    .number()
    .int('must be an integer')
    .min(1)
    .max(24 * 90)
    .default(72),
  /** How often the worker looks for due checks; 0 turns the DNS check off in this process. */
  DOMAIN_CHECK_POLL_MS: z.coerce.number().int('must be an integer').min(0).max(3_600_000).default(10_000),
  /** Seconds between two looks at the same pending domain. */
  DOMAIN_RECHECK_S: z.coerce.number().int('must be an integer').min(1).max(86_400).default(300),
};
