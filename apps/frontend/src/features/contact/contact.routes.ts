/** POST /api/contact: validate, hand to the contact service, answer with the control plane's answer. */
import { parseOrThrow } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { HostTenants } from '../tenancy/host-tenant.resolver.js';
import type { ContactService } from './contact.service.js';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const contactSchema = z.object({
  name: text(100).min(1, 'is required'),
  email: text(254).pipe(z.email('must be an email address')),
  subject: text(150).min(1, 'is required'),
  description: text(5000).min(1, 'is required'),
  captcha_token: z.string().max(4096, 'must be at most 4096 characters').optional(),
});

export function registerContactApi(
  app: FastifyInstance,
  deps: { contact: ContactService; tenants: HostTenants },
): void {
  app.post('/api/contact', async (req, reply) => {
    const tenant = await deps.tenants.resolve(req.hostname);
    if (!tenant) throw new AppError('TENANT_NOT_FOUND', 'No site is configured for this host.');
    const input = parseOrThrow(contactSchema, req.body);
    const key = req.headers['idempotency-key'];
    const answer = await deps.contact.submit(
      {
        tenant,
        idempotencyKey: typeof key === 'string' ? key : undefined,
        clientIp: req.ip,
        siteHostname: req.hostname,
      },
      input,
    );
    reply.header('cache-control', 'no-store');
    if (answer.status >= 400) reply.type('application/problem+json');
    return reply.code(answer.status).send(answer.body);
  });
}
