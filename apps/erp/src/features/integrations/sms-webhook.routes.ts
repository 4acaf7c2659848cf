/**
 * SMS provider webhooks on the ERP host. POST /sms/webhook/sms (the host's own tenant) and
 * POST /sms/webhook/<tenant slug>/sms (that tenant's) verify the signature over the URL reached and
 * the timestamp with that tenant's signing key (401 otherwise), read the notified message back from
 * the provider with that tenant's credentials (400 when it has none, 503 when it cannot be reached),
 * de-duplicate, and answer; the ERP work runs from the outbox.
 * GET /sms/webhook/test (and /sms/webhook/<tenant slug>/test) proves the route is reachable from the provider's side.
 */
import { acceptRawBodies } from '@platform/http-kit';
import { smsWebhookPath, type WebhookOutcome } from '@platform/integrations';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { integrationTenant, tenantParam } from './integration-tenant.js';
import type { IntegrationsDeps } from './integrations.types.js';

/** The provider retries on 503; 401 and 400 tell it the request will never be accepted. */
const WEBHOOK_STATUS: Record<WebhookOutcome['kind'], number> = {
  handled: 200,
  unauthenticated: 401,
  malformed: 400,
  unavailable: 503,
};

export function registerSmsWebhookRoutes(app: FastifyInstance, deps: IntegrationsDeps): void {
  void app.register(async (scope) => {
    // The signature covers the bytes as sent: keep them raw in this scope only.
    acceptRawBodies(scope);
    const receive = async (req: FastifyRequest, reply: FastifyReply) => {
      const slug = tenantParam(req);
      const tenant = await integrationTenant(deps, slug);
      // A URL naming no company has no key that could verify it: refused like a bad signature.
      const out: WebhookOutcome = tenant
        ? await deps.sms.receiveWebhook(
            tenant.id,
            { headers: req.headers, rawBody: (req.body as Buffer | undefined) ?? Buffer.alloc(0) },
            smsWebhookPath(slug),
          )
        : { kind: 'unauthenticated', reason: 'unknown tenant in the URL' };
      if (out.kind !== 'handled') req.log.warn({ reason: out.reason }, 'SMS webhook refused');
      return reply
        .code(WEBHOOK_STATUS[out.kind])
        .header('cache-control', 'no-store')
        .send(out.kind === 'handled' ? { ok: true } : { ok: false, reason: out.reason });
    };
    scope.post('/sms/webhook/sms', receive);
    scope.post('/sms/webhook/:tenant/sms', receive);
  });
  const test = async (req: FastifyRequest, reply: FastifyReply) => {
    const tenant = await integrationTenant(deps, tenantParam(req));
    if (!tenant) return reply.code(404).header('cache-control', 'no-store').send({ status: 'unknown_tenant' });
    const configured = (await deps.settings.smsSecrets(tenant.id).catch(() => undefined)) !== undefined;
    return reply
      .header('cache-control', 'no-store')
      .send({ status: 'ok', service: 'sms-webhook', configured, time: new Date().toISOString() });
  };
  app.get('/sms/webhook/test', test);
  app.get('/sms/webhook/:tenant/test', test);
}
