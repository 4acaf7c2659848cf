/**
 * Every request to the landing host is for one tenant, decided by its Host through the platform's
 * resolver (@platform/tenancy): a tenant's platform subdomain, its active custom domain, or one of
 * this host's own names (the single-company install's default tenant). The tenant travels on the
 * request (`request.tenant`, and `x-tenant-id`/`x-tenant-slug` request headers for anything
 * downstream, replacing whatever the client sent) and on the response. Any other host gets a
 * not-found page: HTML for a browser, problem+json for the API.
 */
import { sendProblem } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import type { ResolvedTenant, TenantHostResolver } from '@platform/tenancy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of the request's host; unset only on host-independent paths (health, ACME). */
    tenant?: ResolvedTenant;
  }
}

/** Paths that answer whatever the host: health checks, ACME http-01 (a domain is not active yet while its certificate is issued), the local bot-check stand-in. */
const HOST_FREE = /^\/(health(\/|$|\?)|\.well-known\/acme-challenge\/|local-captcha\/)/;

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Site not found</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">
<h1>Site not found</h1><p>No site is configured for this address. Check the address you typed.</p></body></html>
`;

function wantsJson(req: FastifyRequest): boolean {
  if (req.url.startsWith('/api/')) return true;
  const accept = req.headers.accept ?? '';
  return /json/.test(accept) && !/text\/html/.test(accept);
}

function notFound(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
  if (wantsJson(req))
    void sendProblem(req, reply, new AppError('TENANT_NOT_FOUND', 'No site is configured for this host.'));
  else void reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
}

function attach(req: FastifyRequest, reply: FastifyReply, tenant: ResolvedTenant): void {
  req.tenant = tenant;
  req.headers['x-tenant-id'] = tenant.tenantId;
  req.headers['x-tenant-slug'] = tenant.slug;
  reply.header('x-tenant-id', tenant.tenantId).header('x-tenant-slug', tenant.slug);
}

export function registerTenantHost(app: FastifyInstance, resolver: TenantHostResolver): void {
  // Callback style: a cached host costs no promise on the hot path.
  app.addHook('onRequest', (req, reply, done) => {
    delete req.headers['x-tenant-id'];
    delete req.headers['x-tenant-slug'];
    const cached = resolver.cached(req.hostname);
    if (cached) return (attach(req, reply, cached), done());
    if (HOST_FREE.test(req.url)) return done();
    if (cached === null) return notFound(req, reply);
    resolver.resolve(req.hostname).then(
      (tenant) => {
        if (!tenant) return notFound(req, reply);
        attach(req, reply, tenant);
        done();
      },
      (e: unknown) => done(e as Error),
    );
  });
}

/** The request's tenant, for routes behind the hook (their host always resolved). */
export function tenantOf(req: FastifyRequest): ResolvedTenant {
  if (!req.tenant) throw new AppError('TENANT_NOT_FOUND', 'No site is configured for this host.');
  return req.tenant;
}
