/**
 * The unsubscribe link's routes, public and without login (RFC 8058). POST unsubscribes: a mailbox
 * provider's one-click (`List-Unsubscribe=One-Click`) or the button of the GET page. GET only shows
 * that button, because link scanners and previews fetch every link in a mail and must not unsubscribe.
 */
import type { Db } from '@platform/db';
import { acceptRawBodies } from '@platform/http-kit';
import type { FastifyInstance } from 'fastify';

import { unsubscribe, UNSUBSCRIBE_PATH } from './unsubscribe.js';

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Unsubscribe</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">${body}</body></html>`;

export function registerEmailUnsubscribe(app: FastifyInstance, db: Db): void {
  void app.register(async (scope) => {
    // The one-click body is form-encoded; browsers' forms too. Its content does not matter.
    acceptRawBodies(scope);
    scope.get<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send(
          page(
            '<h1>Unsubscribe</h1><p>Stop reminders and follow-ups from this company to your email address?</p>' +
              '<form method="post"><button type="submit">Unsubscribe</button></form>',
          ),
        ),
    );
    scope.post<{ Params: { token: string } }>(`${UNSUBSCRIBE_PATH}/:token`, async (req, reply) => {
      const done = await unsubscribe(db, req.params.token);
      return reply
        .code(done ? 200 : 404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          page(
            done
              ? '<h1>You are unsubscribed</h1><p>You will get no more reminders or follow-ups by email. Receipts and account emails still arrive.</p>'
              : '<h1>Link not found</h1><p>This unsubscribe link is not valid.</p>',
          ),
        );
    });
  });
}
