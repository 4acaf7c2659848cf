/**
 * Mounts one POST /email/webhook/<route> per provider receiver the composition root gave the service.
 * For now on the ERP host; they move to the control plane when it exists (docs/email.md). A provider
 * may post `text/plain` and sign the exact text, so bodies are read raw in this scope.
 */
import { acceptRawBodies, asAppError, decodeBody, sendProblem } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import type { EmailWebhookService } from './email-webhook.service.js';

export function registerEmailWebhooks(app: FastifyInstance, webhooks: EmailWebhookService): void {
  void app.register(async (scope) => {
    // Raw bytes of any media type (the shared webhook input rules: NUL/surrogate 422, size 413).
    acceptRawBodies(scope);
    scope.setErrorHandler((err, req, reply) => {
      const e = asAppError(err);
      if (e.code === 'INTERNAL') req.log.error({ err }, 'email webhook failed');
      else req.log.warn({ code: e.code, reason: e.message }, 'email webhook refused');
      return sendProblem(req, reply, e);
    });
    for (const route of webhooks.routes)
      scope.post(`/email/webhook/${route}`, async (req, reply) => {
        const body = textOf(req.body, req.headers['content-type']);
        const out = await webhooks.receive(route, { headers: req.headers, body });
        return reply.header('cache-control', 'no-store').send({ ok: true, ...out });
      });
  });
}

/** The body as text, decoded by its declared charset (UTF-8 when none). */
function textOf(body: unknown, contentType: string | undefined): string {
  return Buffer.isBuffer(body) ? decodeBody(body, contentType) : '';
}
