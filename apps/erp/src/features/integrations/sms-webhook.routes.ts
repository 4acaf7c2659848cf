/**
 * SMS provider webhooks on the ERP host. POST /sms/webhook/sms verifies the signature and timestamp
 * (401 otherwise), reads the notified message back from the provider (400 when it has none, 503 when
 * it cannot be reached), de-duplicates, and answers; the ERP work runs from the outbox.
 * GET /sms/webhook/test proves the route is reachable from the provider's side.
 */
import { acceptRawBodies } from '@platform/http-kit';
import type { WebhookOutcome } from '@platform/integrations';
import type { FastifyInstance } from 'fastify';

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
    scope.post('/sms/webhook/sms', async (req, reply) => {
      const out = await deps.sms.receiveWebhook(deps.tenantId, {
        headers: req.headers,
        rawBody: (req.body as Buffer | undefined) ?? Buffer.alloc(0),
      });
      if (out.kind !== 'handled') req.log.warn({ reason: out.reason }, 'SMS webhook refused');
      return reply
        .code(WEBHOOK_STATUS[out.kind])
        .header('cache-control', 'no-store')
        .send(out.kind === 'handled' ? { ok: true } : { ok: false, reason: out.reason });
    });
  });
  app.get('/sms/webhook/test', async (_req, reply) => {
    const configured = (await deps.settings.smsSecrets(deps.tenantId).catch(() => undefined)) !== undefined;
    return reply
      .header('cache-control', 'no-store')
      .send({ status: 'ok', service: 'sms-webhook', configured, time: new Date().toISOString() });
  });
}
