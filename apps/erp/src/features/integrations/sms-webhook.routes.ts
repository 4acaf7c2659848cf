/**
 * SMS provider webhooks on the ERP host. POST /sms/webhook/sms verifies the signature and timestamp
 * (401 otherwise), reads the notified message back from the provider (400 when it has none, 503 when
 * it cannot be reached), de-duplicates, and answers; the ERP work runs from the outbox.
 * GET /sms/webhook/test proves the route is reachable from the provider's side.
 */
import type { FastifyInstance } from 'fastify';
import { acceptRawBodies } from '@platform/http-kit';
import type { IntegrationsDeps } from './integrations.types.js';

export function registerSmsWebhookRoutes(app: FastifyInstance, deps: IntegrationsDeps): void {
  void app.register(async (scope) => {
    // The signature covers the bytes as sent: keep them raw in this scope only.
    acceptRawBodies(scope);
    scope.post('/sms/webhook/sms', async (req, reply) => {
      const out = await deps.sms.receiveWebhook(deps.tenantId, { headers: req.headers, rawBody: (req.body as Buffer | undefined) ?? Buffer.alloc(0) });
      if (out.status !== 200) req.log.warn({ reason: out.reason }, 'SMS webhook refused');
      return reply.code(out.status).header('cache-control', 'no-store').send(out.status === 200 ? { ok: true } : { ok: false, reason: out.reason });
    });
  });
  app.get('/sms/webhook/test', async (_req, reply) => {
    const configured = (await deps.settings.smsSecrets(deps.tenantId).catch(() => undefined)) !== undefined;
    return reply.header('cache-control', 'no-store').send({ status: 'ok', service: 'sms-webhook', configured, time: new Date().toISOString() });
  });
}
