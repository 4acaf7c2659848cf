/**
 * Mounts the email provider webhooks: POST /email/webhook/postmark and POST /email/webhook/ses.
 * For now on the ERP host; they move to the control plane when it exists (docs/email.md). SNS posts
 * `text/plain`, so bodies are read raw in this scope (the signature covers the exact text).
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
    scope.post('/email/webhook/postmark', async (req, reply) => {
      let body: unknown;
      try {
        body = JSON.parse(textOf(req.body, req.headers['content-type']));
      } catch {
        body = undefined;
      }
      const out = await webhooks.postmark(req.headers, body);
      return reply.header('cache-control', 'no-store').send({ ok: true, ...out });
    });
    scope.post('/email/webhook/ses', async (req, reply) => {
      const out = await webhooks.ses(req.headers, textOf(req.body, req.headers['content-type']));
      return reply.header('cache-control', 'no-store').send({ ok: true, ...out });
    });
  });
}

/** The body as text, decoded by its declared charset (UTF-8 when none). */
function textOf(body: unknown, contentType: string | undefined): string {
  return Buffer.isBuffer(body) ? decodeBody(body, contentType) : '';
}
