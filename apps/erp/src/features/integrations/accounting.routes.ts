/**
 * The accounting connection on the ERP host (docs/integrations.md "Accounting"):
 * - GET  /acct/connect     admin: sends the browser to the provider's authorize page;
 * - GET  /acct/callback    the OAuth2 callback: an HTML page saying connected, or why not;
 * - POST /acct/webhook     the provider's signed events: 200 with an empty body, or 401;
 *   `/acct/webhook/<tenant slug>` is that tenant's (checked with its Webhook Key only);
 * - POST /acct/disconnect  admin: revokes the grant and forgets the tokens;
 * - GET  /acct/status      admin: the connection as an operator may see it (JSON, no secrets).
 * Admin routes act for `?tenant=<slug>` (default: the host's tenant) and take HTTP Basic with a
 * login listed in ACCT_ADMIN_LOGINS and its password (or API key), checked by that tenant's ERP.
 * The callback needs no tenant: its one-use `state` was stored on that tenant's connection.
 */
import { acceptRawBodies, decodeBody } from '@platform/http-kit';
import type { AccountingWebhookOutcome } from '@platform/integrations';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { accountingPage } from './accounting-pages.js';
import { integrationTenant, tenantParam, tenantQuery } from './integration-tenant.js';
import type { IntegrationsDeps } from './integrations.types.js';

type Deps = IntegrationsDeps & { accounting: NonNullable<IntegrationsDeps['accounting']> };

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

const companyOf = (req: FastifyRequest): number => {
  const c = Number((req.query as Record<string, string | undefined>)['company'] ?? 1);
  return Number.isInteger(c) && c > 0 ? c : 1;
};

function first(h: string | string[] | undefined): string | undefined {
  return (Array.isArray(h) ? h[0] : h)?.split(',')[0]?.trim() || undefined;
}

/** The body decoded by its declared charset (UTF-16 included); undecodable bytes are left to the signature check. */
function textOf(body: Buffer, contentType: string | undefined): string | undefined {
  try {
    return decodeBody(body, contentType);
  } catch {
    return undefined;
  }
}

export function registerAccountingRoutes(app: FastifyInstance, deps: Deps): void {
  const { services, verifyAdmin, adminLogins, publicUrl } = deps.accounting;

  /** The callback URL as the request reached us: the public base URL when configured, else the Host seen (proxy headers honoured). */
  const receivedUrl = (req: FastifyRequest): string => {
    const path = req.url.split('?')[0] ?? req.url;
    if (publicUrl) return `${publicUrl.replace(/\/+$/, '')}${path}`;
    const proto = first(req.headers['x-forwarded-proto']) ?? req.protocol;
    const host = first(req.headers['x-forwarded-host']) ?? req.headers.host ?? 'localhost';
    return `${proto}://${host}${path}`;
  };

  /** The tenant the admin acts for, once its ERP accepted the credentials; undefined when the reply is sent. */
  const admin = async (req: FastifyRequest, reply: FastifyReply): Promise<string | undefined> => {
    // An unknown company is answered like bad credentials, so the page does not tell which companies exist.
    const tenant = await integrationTenant(deps, tenantQuery(req));
    const h = req.headers.authorization;
    if (tenant && h?.startsWith('Basic ')) {
      const [login = '', ...rest] = Buffer.from(h.slice(6), 'base64').toString('utf8').split(':');
      if (adminLogins.includes(login) && (await verifyAdmin(tenant.id, login, rest.join(':')).catch(() => false)))
        return tenant.id;
    }
    await html(
      reply.header('www-authenticate', 'Basic realm="ERP accounting", charset="UTF-8"'),
      401,
      accountingPage(
        'Sign-in required',
        'Sign in with an ERP administrator login to manage the accounting connection.',
      ),
    );
    return undefined;
  };

  // Cached Basic credentials travel with cross-site form posts: a state change must come from this host.
  const sameOrigin = (req: FastifyRequest): boolean => {
    const origin = req.headers.origin;
    if (!origin) return true;
    try {
      return new URL(origin).host === (first(req.headers['x-forwarded-host']) ?? req.headers.host);
    } catch {
      return false;
    }
  };

  app.get('/acct/connect', async (req, reply) => {
    const tenantId = await admin(req, reply);
    if (!tenantId) return reply;
    return reply
      .header('cache-control', 'no-store')
      .redirect(await services.connect.start(tenantId, companyOf(req)), 302);
  });

  const callback = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, string | undefined>;
    const out = await services.connect.callback({
      ...(q['state'] ? { state: q['state'] } : {}),
      ...(q['code'] ? { code: q['code'] } : {}),
      ...(q['error'] ? { error: q['error'] } : {}),
      ...(q['error_description'] ? { errorDescription: q['error_description'] } : {}),
      receivedUrl: receivedUrl(req),
    });
    if (out.ok)
      return html(
        reply,
        200,
        accountingPage(
          'Accounting connected',
          `"${out.connection}" is connected to ${out.tenantName}. You can close this page.`,
        ),
      );
    if (out.reason === 'redirect_uri_mismatch') {
      req.log.warn(
        { registered: out.registered, received: out.received },
        'accounting callback: redirect URI mismatch',
      );
      return html(
        reply,
        400,
        accountingPage(
          'Redirect URI mismatch',
          "The callback arrived at a URL that differs from the Redirect URI of the accounting connection. They must be equal exactly, trailing slash included, here and in the provider's portal.",
          [
            { label: 'Redirect URI (ERP configuration)', value: out.registered },
            { label: 'Callback URL received', value: out.received },
          ],
        ),
      );
    }
    return html(reply, 400, accountingPage('Accounting not connected', out.message));
  };
  app.get('/acct/callback', callback);
  // Registered too, so a Redirect URI with a trailing slash gets the comparison page, not a 404.
  app.get('/acct/callback/', callback);

  app.post('/acct/disconnect', async (req, reply) => {
    if (!sameOrigin(req)) return html(reply, 403, accountingPage('Refused', 'Disconnect from the ERP host itself.'));
    const tenantId = await admin(req, reply);
    if (!tenantId) return reply;
    await services.connect.disconnect(tenantId, companyOf(req));
    return html(
      reply,
      200,
      accountingPage(
        'Accounting disconnected',
        'The grant was revoked and the tokens forgotten. Connect again to resume the sync.',
      ),
    );
  });

  app.get('/acct/status', async (req, reply) => {
    const tenantId = await admin(req, reply);
    if (!tenantId) return reply;
    return reply
      .header('cache-control', 'no-store')
      .send(await deps.settings.showAccountingConnection(tenantId, companyOf(req)));
  });

  void app.register(async (scope) => {
    // The signature covers the bytes as sent: keep them raw in this scope only.
    acceptRawBodies(scope);
    const webhook = async (req: FastifyRequest, reply: FastifyReply) => {
      const tenant = await integrationTenant(deps, tenantParam(req));
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const text = textOf(body, req.headers['content-type']);
      // A URL naming no company has no key that could verify it: refused like a bad signature.
      const out: AccountingWebhookOutcome = tenant
        ? await services.webhook.receive(tenant.id, {
            headers: req.headers,
            rawBody: body,
            ...(text === undefined ? {} : { text }),
          })
        : { kind: 'unauthenticated', reason: 'unknown tenant in the URL' };
      if (out.kind !== 'accepted') req.log.warn({ reason: out.reason }, 'accounting webhook refused');
      // The provider wants an empty body (and no cookies), whatever the outcome.
      return reply.code(WEBHOOK_STATUS[out.kind]).header('cache-control', 'no-store').send();
    };
    scope.post('/acct/webhook', webhook);
    scope.post('/acct/webhook/:tenant', webhook);
  });
}

/** The provider's protocol: 200 to a good signature (probes included), 401 to a bad one. */
const WEBHOOK_STATUS: Record<AccountingWebhookOutcome['kind'], number> = {
  accepted: 200,
  unauthenticated: 401,
  malformed: 400,
};
