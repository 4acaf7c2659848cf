/** The proxy's environment (npm run proxy), validated once; the only reader of process.env here. */
import { type EnvSource, readConfig } from '@platform/kernel';
import { z } from 'zod';

const port = z.coerce
  .number()
  .int('must be an integer')
  .min(1, 'must be a TCP port (1-65535)')
  .max(65535, 'must be a TCP port (1-65535)');
const host = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, 'must be a lowercase DNS host name');
const upstream = z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'must be host:port of the service');
// A file path written into nginx.conf: nothing that could end a directive or start a new one.
const configPath = z.string().regex(/^[^\s;{}'"#$\\]+$/, 'must be a file path without spaces, quotes or ; { } # $');
const size = z.string().regex(/^\d+[km]?$/, 'must be an nginx size such as 16k or 1m');

export const proxyEnvSchema = z.object({
  PROXY_DIR: z.string().default('./data/proxy'),
  PROXY_LISTEN: z
    .string()
    .regex(/^[0-9.]+$|^\[[0-9a-f:]+\]$/, 'must be an IP address to listen on')
    .default('127.0.0.1'),
  PROXY_HTTP_PORT: port.default(80),
  PROXY_HTTPS_PORT: port.default(443),
  ERP_DOMAIN: host.default('erp.example.test'),
  LANDING_DOMAIN: host.default('www.example.test'),
  PWA_DOMAIN: host.default('app.example.test'),
  DOCS_DOMAIN: host.default('docs.example.test'),
  ERP_UPSTREAM: upstream.default('127.0.0.1:8069'),
  LANDING_UPSTREAM: upstream.default('127.0.0.1:8001'),
  PWA_UPSTREAM: upstream.default('127.0.0.1:8000'),
  DOCS_UPSTREAM: upstream.default('127.0.0.1:8002'),
  /** The control plane: only the payment provider's webhook reaches it from outside (on ERP_DOMAIN). */
  CONTROL_UPSTREAM: upstream.default('127.0.0.1:8003'),
  // Body limits matching the services': Fastify's 1 MiB default on the ERP, the landing host's
  // BODY_LIMIT_BYTES (16 KiB default); photos from the field app are larger.
  ERP_MAX_BODY: size.default('1m'),
  LANDING_MAX_BODY: size.default('16k'),
  PWA_MAX_BODY: size.default('20m'),
  DOCS_MAX_BODY: size.default('64k'),
  // Stripe's events are a few KiB; the control plane's own limit is Fastify's 1 MiB.
  PAYMENT_WEBHOOK_MAX_BODY: size.default('256k'),
  // On tenant hosts the frontend's paths keep the frontend's own limits: Fastify's 64 KiB for pages
  // and /api/contact, FRONTEND_BODY_LIMIT_BYTES (15 MiB, photos) for what it forwards to /api/control/.
  FRONTEND_MAX_BODY: size.default('64k'),
  FRONTEND_CONTROL_MAX_BODY: size.default('15m'),
  /** Tenant subdomains `<slug>.<TENANTS_HOST>` (the services' setting of the same name), on a wildcard certificate. */
  TENANTS_HOST: host.default('tenants.localhost'),
  /** The `*.<TENANTS_HOST>` certificate (full chain) and key; default `wildcard.<TENANTS_HOST>.crt`/`.key` beside the public hosts'. */
  TENANTS_WILDCARD_CERT: configPath.optional(),
  TENANTS_WILDCARD_KEY: configPath.optional(),
  /** Directory with <hostname>.crt and <hostname>.key for the public hosts; without it a test CA signs them. */
  PROXY_CERT_DIR: z.string().optional(),
  NGINX_BIN: z.string().default('nginx'),
  NGINX_BROTLI_MODULE: z.string().default('/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so'),
});

export type ProxyConfig = z.infer<typeof proxyEnvSchema>;

export const loadProxyConfig = (env: EnvSource = process.env): ProxyConfig => readConfig(proxyEnvSchema, env);
