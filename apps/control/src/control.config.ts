/** The control plane's environment, validated once at start-up (the only reader of process.env here). */
import { metricsEnvShape } from '@platform/http-kit';
import { type EnvSource, readConfig, sharedEnvShape } from '@platform/kernel';
import { z } from 'zod';

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
  ...metricsEnvShape,
});

export type ControlConfig = z.infer<typeof controlEnvSchema>;

export function loadControlConfig(env: EnvSource = process.env): ControlConfig {
  return readConfig(controlEnvSchema, env);
}
