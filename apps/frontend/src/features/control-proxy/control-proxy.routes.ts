/**
 * `/api/control/*` → the control plane, so the browser talks to one origin. The tenant comes from
 * the host (x-tenant-id / x-tenant-slug set here; whatever the browser sent under those names is
 * dropped); the body is forwarded as bytes, the answer (status, problem body, Retry-After,
 * Idempotent-Replayed) comes back unchanged. Presigned upload and download URLs that point at the
 * control plane itself are rewritten to go through this path too.
 */
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { HostTenants } from '../tenancy/host-tenant.resolver.js';

export const CONTROL_PREFIX = '/api/control';
const FORWARD_REQUEST = ['authorization', 'content-type', 'accept', 'idempotency-key', 'if-match', 'user-agent'];
const FORWARD_RESPONSE = [
  'content-type',
  'content-disposition',
  'retry-after',
  'idempotent-replayed',
  'etag',
  'location',
  'www-authenticate',
];
const TIMEOUT_MS = 30_000;

export interface ControlProxyDeps {
  controlUrl: string;
  tenants: HostTenants;
  bodyLimit: number;
  fetch?: typeof fetch;
}

export function registerControlProxy(app: FastifyInstance, deps: ControlProxyDeps): void {
  const base = deps.controlUrl.replace(/\/+$/, '');
  const doFetch = deps.fetch ?? fetch;
  void app.register(async (scope) => {
    // Bytes in, bytes out: the control plane validates the body, not this hop.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.bodyLimit }, (_req, body, done) =>
      done(null, body),
    );
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const tenant = await deps.tenants.resolve(req.hostname);
      if (!tenant) throw new AppError('TENANT_NOT_FOUND', 'No site is configured for this host.');
      const rest = req.url.slice(CONTROL_PREFIX.length) || '/';
      const headers: Record<string, string> = { 'x-tenant-id': tenant.id, 'x-tenant-slug': tenant.slug };
      for (const h of FORWARD_REQUEST) {
        const v = req.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      headers['x-forwarded-for'] = req.ip;
      headers['x-forwarded-host'] = req.hostname;
      let upstream: Response;
      try {
        upstream = await doFetch(`${base}${rest}`, {
          method: req.method,
          headers,
          body:
            req.method === 'GET' || req.method === 'HEAD'
              ? undefined
              : (req.body as Uint8Array<ArrayBuffer> | undefined),
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (e) {
        throw new AppError('CONTROL_UNAVAILABLE', 'The service is temporarily unavailable; please try again.', {
          cause: e,
        });
      }
      reply.code(upstream.status);
      for (const h of FORWARD_RESPONSE) {
        const v = upstream.headers.get(h);
        if (v) reply.header(h, v);
      }
      reply.header('cache-control', 'no-store');
      const body = Buffer.from(await upstream.arrayBuffer());
      if (/\/jobs\/[^/]+\/(uploads|downloads)$/.test(rest.split('?')[0]!) && upstream.ok) {
        return reply.send(rewriteObjectUrl(body, base));
      }
      return reply.send(body);
    };
    scope.all(`${CONTROL_PREFIX}/*`, handler);
    scope.all(CONTROL_PREFIX, handler);
  });
}

/**
 * An upload or download URL on the control plane's own origin (the embedded object store) is
 * reachable by the browser only through this hop; a bucket's URL is left as it is.
 */
function rewriteObjectUrl(body: Buffer, base: string): Buffer {
  try {
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    let changed = false;
    for (const field of ['upload_url', 'download_url']) {
      const v = json[field];
      if (typeof v !== 'string' || !sameControlOrigin(new URL(v), new URL(base))) continue;
      const u = new URL(v);
      json[field] = `${CONTROL_PREFIX}${u.pathname.slice(new URL(base).pathname.replace(/\/$/, '').length)}${u.search}`;
      changed = true;
    }
    if (changed) return Buffer.from(JSON.stringify(json));
  } catch {
    // Not JSON: forward unchanged.
  }
  return body;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The control plane's own address, however it is spelled: its presigned URLs may name the loopback
 * as `localhost` (CONTROL_PUBLIC_URL's default) while CONTROL_URL says 127.0.0.1, same port.
 */
function sameControlOrigin(u: URL, base: URL): boolean {
  if (!u.pathname.startsWith(`${base.pathname.replace(/\/$/, '')}/`)) return false;
  if (u.origin === base.origin) return true;
  return (
    u.protocol === base.protocol && u.port === base.port && LOOPBACK.has(u.hostname) && LOOPBACK.has(base.hostname)
  );
}
