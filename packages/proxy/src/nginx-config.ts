/**
 * Renders nginx.conf for the platform's edge: the four public hosts over TLS, tenant subdomains
 * (`*.<TENANTS_HOST>`, one wildcard certificate), HTTP → HTTPS redirects (except the ACME http-01
 * path), /nginx-health, unknown hosts refused, and an include of the tenant domains' servers
 * (tenant-sites.conf, rewritten when a certificate becomes active or renews). The fixed parts live in
 * deploy/nginx/snippets; only what depends on data is generated here.
 */
import {
  TENANT_FRONTEND_UPSTREAM,
  TENANT_SITES_UPSTREAM,
  type TenantBodyLimits,
  tenantLocations,
} from './tenant-routes.js';

export type SiteKey = 'erp' | 'landing' | 'pwa' | 'docs';

export interface PublicSite {
  key: SiteKey;
  hostname: string;
  /** host:port of the service behind it. */
  upstream: string;
  /** nginx size, e.g. `1m`: matches the service's own body limit so both refuse the same requests. */
  maxBodySize: string;
  certFile: string;
  keyFile: string;
}

export interface NginxLayout {
  /** nginx's prefix directory: pid, logs, temp files, snippets and tenant-sites.conf live here. */
  prefix: string;
  listenAddress: string;
  httpPort: number;
  httpsPort: number;
  sites: PublicSite[];
  /** Where tenant hosts' website paths and the ACME http-01 path go (the landing host). */
  tenantUpstream: string;
  /** Where tenant hosts' customer-facing app paths go (the frontend: portal, field, office, …). */
  tenantFrontendUpstream: string;
  tenantBodyLimits: TenantBodyLimits;
  /**
   * The payment provider's webhook (`POST /webhooks/payments`, docs/payments.md) on the ERP host, passed
   * to the control plane with its body and `Stripe-Signature` untouched; absent: not routed.
   */
  paymentWebhook?: { upstream: string; maxBodySize: string } | undefined;
  /**
   * Tenant subdomains `<slug>.<tenantsHost>`, served with one wildcard certificate; `served: false`
   * when the operator has none yet (the subdomains are then not proxied, the rest still is).
   */
  tenantSubdomains: { tenantsHost: string; certFile: string; keyFile: string; served: boolean };
  /** Path of Debian's brotli filter module when installed; gzip only otherwise. */
  brotliModule?: string | undefined;
  /** `user` directive when nginx's master runs as root (its workers then drop to this user). */
  workerUser?: string | undefined;
}

export interface TenantSite {
  domain: string;
  certFile: string;
  keyFile: string;
}

const HEALTH = `    location = /nginx-health {\n      access_log off;\n      default_type text/plain;\n      return 200 "ok\\n";\n    }`;

const CHALLENGE = `    location ^~ /.well-known/acme-challenge/ {\n      proxy_pass http://${TENANT_SITES_UPSTREAM};\n      include snippets/proxy-headers.conf;\n    }`;

const listen = (l: NginxLayout, port: number, extra = '') => `    listen ${l.listenAddress}:${port}${extra};`;

/** The HTTPS URL of a request on the same host (the port is kept when it is not 443). */
const httpsTarget = (l: NginxLayout) => `https://$host${l.httpsPort === 443 ? '' : `:${l.httpsPort}`}$request_uri`;

/** One upstream for the whole host. */
const wholeHost = (upstream: string) => `    location / {
      proxy_pass http://${upstream};
      include snippets/proxy-headers.conf;
    }`;

export const PAYMENT_WEBHOOK_UPSTREAM = 'control_payments';

/** Only POST of exactly this path reaches the control plane: the signature is its authentication. */
const paymentWebhookLocation = (maxBody: string) => `    location = /webhooks/payments {
      limit_except POST {
        deny all;
      }
      client_max_body_size ${maxBody};
      proxy_pass http://${PAYMENT_WEBHOOK_UPSTREAM};
      include snippets/proxy-headers.conf;
    }`;

/** The locations of a public host: the whole host to its service, and on the ERP host the payments webhook. */
const siteLocations = (l: NginxLayout, s: PublicSite) =>
  s.key === 'erp' && l.paymentWebhook
    ? `${paymentWebhookLocation(l.paymentWebhook.maxBodySize)}\n${wholeHost(s.key)}`
    : wholeHost(s.key);

function httpsServer(
  l: NginxLayout,
  names: string[],
  tls: { certFile: string; keyFile: string },
  maxBody: string,
  locations: string,
): string {
  return `  server {
${listen(l, l.httpsPort, ' ssl http2')}
    server_name ${names.join(' ')};
    ssl_certificate ${tls.certFile};
    ssl_certificate_key ${tls.keyFile};
    client_max_body_size ${maxBody};
    include snippets/security-headers.conf;
${HEALTH}
${locations}
  }
`;
}

/** A tenant host (custom domain or subdomain): frontend paths to the frontend, the rest to the landing host. */
const tenantServer = (l: NginxLayout, names: string[], tls: { certFile: string; keyFile: string }) =>
  httpsServer(l, names, tls, l.tenantBodyLimits.landing, tenantLocations(l.tenantBodyLimits));

function redirectServer(l: NginxLayout, names: string[]): string {
  return `  server {
${listen(l, l.httpPort)}
    server_name ${names.join(' ')};
${HEALTH}
${CHALLENGE}
    location / {
      return 301 ${httpsTarget(l)};
    }
  }
`;
}

export function renderNginxConf(l: NginxLayout): string {
  const upstreams = [
    ...l.sites.map((s) => ({ name: s.key, addr: s.upstream })),
    { name: TENANT_SITES_UPSTREAM, addr: l.tenantUpstream },
    { name: TENANT_FRONTEND_UPSTREAM, addr: l.tenantFrontendUpstream },
    ...(l.paymentWebhook ? [{ name: PAYMENT_WEBHOOK_UPSTREAM, addr: l.paymentWebhook.upstream }] : []),
  ]
    .map((u) => `  upstream ${u.name} {\n    server ${u.addr};\n    keepalive 16;\n  }\n`)
    .join('');
  const subdomains = l.tenantSubdomains.served ? [`*.${l.tenantSubdomains.tenantsHost}`] : [];
  return `# Generated by @platform/proxy (npm run proxy); edit deploy/nginx or packages/proxy instead.
${l.workerUser ? `user ${l.workerUser};\n` : ''}${l.brotliModule ? `load_module ${l.brotliModule};\n` : ''}worker_processes auto;
pid ${l.prefix}/nginx.pid;
error_log ${l.prefix}/logs/error.log warn;

events {
  worker_connections 1024;
}

http {
  default_type application/octet-stream;
  access_log ${l.prefix}/logs/access.log;
  client_body_temp_path ${l.prefix}/tmp/body;
  proxy_temp_path ${l.prefix}/tmp/proxy;
  fastcgi_temp_path ${l.prefix}/tmp/fastcgi;
  uwsgi_temp_path ${l.prefix}/tmp/uwsgi;
  scgi_temp_path ${l.prefix}/tmp/scgi;
  server_tokens off;
  sendfile on;
  keepalive_timeout 65s;
  client_header_timeout 15s;
  client_body_timeout 30s;
  send_timeout 60s;
  include snippets/tls.conf;
  include snippets/gzip.conf;
${l.brotliModule ? '  brotli on;\n  brotli_types text/plain text/css text/javascript application/javascript application/json image/svg+xml;\n' : ''}
  # WebSocket: "upgrade" when the client asks for it; otherwise no Connection header, so upstream
  # keep-alive works.
  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' '';
  }

${upstreams}
  # Port 80: health and ACME http-01 for any host; everything else of an unknown host is dropped.
  server {
${listen(l, l.httpPort, ' default_server')}
    server_name _;
${HEALTH}
${CHALLENGE}
    location / {
      return 444;
    }
  }

  # HTTPS for a name we hold no certificate for: the TLS handshake is refused; a request whose Host
  # does not match its SNI name lands here too and is answered 421.
  server {
${listen(l, l.httpsPort, ' ssl http2 default_server')}
    ssl_reject_handshake on;
    return 421;
  }

${redirectServer(l, [...l.sites.map((s) => s.hostname), ...subdomains])}
${l.sites.map((s) => httpsServer(l, [s.hostname], s, s.maxBodySize, siteLocations(l, s))).join('\n')}
${
  subdomains.length
    ? `  # Tenant subdomains: exact names (public hosts, tenant domains) take precedence over this wildcard.\n${tenantServer(l, subdomains, l.tenantSubdomains)}`
    : '  # Tenant subdomains: not served (no wildcard certificate; docs/proxy.md).\n'
}
  include ${l.prefix}/tenant-sites.conf;
}
`;
}

/** tenant-sites.conf: one HTTPS server (and its port-80 redirect) per tenant domain with an active certificate. */
export function renderTenantSites(l: NginxLayout, sites: TenantSite[]): string {
  const head = '# Generated from the active tenant-domain certificates; rewritten on issue and renewal.\n';
  return head + sites.map((s) => redirectServer(l, [s.domain]) + tenantServer(l, [s.domain], s)).join('\n');
}
