/**
 * The office users' email API (mounted on the ERP host under the REST API's credentials until the
 * control plane exists): see why addresses are suppressed and lift bounces, manage the tenant's
 * sending domain and sender, preview templates. Routes validate, call one service method, shape.
 */
import { parseOrThrow, registerProblemHandlers } from '@platform/http-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { EmailAdminService } from './email-admin.service.js';

export type AdminGuard = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

const liftSchema = z.object({
  email: z.email('must be an email address').max(254),
  by: z.string().trim().min(1).max(100).optional(),
});
const listSchema = z.object({
  email: z.email('must be an email address').max(254).optional(),
  all: z.enum(['true', 'false']).optional(),
});
const domainSchema = z.object({ domain: z.string().min(4).max(253) });
export const senderSchema = z.object({
  from_name: z.string().trim().min(1).max(100).optional(),
  from_local_part: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._+-]{0,63}$/i, 'must be the part before the @')
    .optional(),
  reply_to: z.email('must be an email address').max(100).optional(),
});

export function registerEmailAdmin(
  root: FastifyInstance,
  guard: AdminGuard,
  s: EmailAdminService,
  prefix = '/restapi/1.0/admin/email',
): void {
  void root.register(
    async (app) => {
      registerProblemHandlers(app);
      app.addHook('preHandler', guard);
      app.addHook('onSend', async (_req, reply) => void reply.header('cache-control', 'no-store'));
      app.get('/suppressions', async (req) => {
        const q = parseOrThrow(listSchema, req.query);
        return s.listSuppressions({ ...(q.email ? { email: q.email } : {}), includeLifted: q.all === 'true' });
      });
      app.post('/suppressions/lift', async (req) => {
        const b = parseOrThrow(liftSchema, req.body);
        return s.liftSuppression(b.email, b.by ?? 'office');
      });
      app.get('/domain', async () => s.showDomain());
      app.put('/domain', async (req, reply) =>
        reply.code(201).send(await s.addDomain(parseOrThrow(domainSchema, req.body).domain)),
      );
      app.post('/domain/verify', async () => s.verifyDomain());
      app.delete('/domain', async (_req, reply) => (await s.removeDomain(), reply.code(204).send()));
      app.put('/sender', async (req) => s.setSender(parseOrThrow(senderSchema, req.body)));
      app.get('/preview/:template', async (req) => s.preview((req.params as { template: string }).template));
    },
    { prefix },
  );
}
