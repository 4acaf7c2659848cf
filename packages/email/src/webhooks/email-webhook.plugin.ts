/**
 * Mounts the email provider webhooks: POST /email/webhook/postmark and POST /email/webhook/ses.
 * For now on the ERP host; they move to the control plane when it exists (docs/email.md). SNS posts
 * `text/plain`, so bodies are read raw in this scope (the signature covers the exact text).
 */
import type { FastifyInstance } from 'fastify';
import { asAppError, sendProblem } from '@platform/http-kit';
import type { EmailWebhookService } from './email-webhook.service.js';

export function registerEmailWebhooks(app: FastifyInstance, webhooks: EmailWebhookService): void {
  void app.register(async (scope) => {
    // The host's own JSON and text parsers (registerInputHandling) are replaced in this scope only.
    scope.removeContentTypeParser(['application/json', 'text/plain']);
    scope.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));
    scope.setErrorHandler((err, req, reply) => {
      const e = asAppError(err);
      if (e.code === 'INTERNAL') req.log.error({ err }, 'email webhook failed');
      else req.log.warn({ code: e.code, reason: e.message }, 'email webhook refused');
      return sendProblem(req, reply, e);
    });
    scope.post('/email/webhook/postmark', async (req, reply) => {
      let body: unknown;
      try {
        body = JSON.parse(String(req.body ?? ''));
      } catch {
        body = undefined;
      }
      const out = await webhooks.postmark(req.headers, body);
      return reply.header('cache-control', 'no-store').send({ ok: true, ...out });
    });
    scope.post('/email/webhook/ses', async (req, reply) => {
      const out = await webhooks.ses(req.headers, String(req.body ?? ''));
      return reply.header('cache-control', 'no-store').send({ ok: true, ...out });
    });
  });
}
