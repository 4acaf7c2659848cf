/**
 * The authenticated admin API of the integration settings, under the REST API's credentials: an
 * API key or OAuth token whose scope includes `admin:integrations`. Secrets go in, never come back
 * in full (masked); the chat webhook URL, itself a credential, is shown as its origin only.
 * A REST credential belongs to the host's tenant, so that is the tenant these routes manage; a
 * `?tenant=<slug>` naming any other company is refused (403), never served.
 */
import { ADMIN_INTEGRATIONS_SCOPE } from '@platform/credentials';
import { parseOrThrow, registerProblemHandlers } from '@platform/http-kit';
import { accountingConnectionSchema, chatConfigSchema, smsConfigSchema, smsLineSchema } from '@platform/integrations';
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { RestAuth } from '../restapi/restapi.auth.js';
import { integrationTenant, tenantQuery } from './integration-tenant.js';
import type { IntegrationsDeps } from './integrations.types.js';

const smsMessageSchema = z.object({
  to: z.string().min(4).max(30),
  body: z.string().min(1).max(1600),
  line_type: z.enum(['sales', 'support', 'operations']).optional(),
});

export function registerIntegrationsAdmin(root: FastifyInstance, auth: RestAuth, d: IntegrationsDeps): void {
  void root.register(async (app) => routes(app, auth, d), { prefix: '/restapi/1.0/admin/integrations' });
}

async function routes(app: FastifyInstance, auth: RestAuth, d: IntegrationsDeps): Promise<void> {
  registerProblemHandlers(app);
  const guard = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const p = await auth.authenticate(req, reply);
    if (!p.scopes.includes(ADMIN_INTEGRATIONS_SCOPE))
      throw new AppError('API_FORBIDDEN', `This credential lacks the scope ${ADMIN_INTEGRATIONS_SCOPE}.`);
    const named = tenantQuery(req);
    if (named !== undefined && (await integrationTenant(d, named))?.id !== d.tenantId)
      throw new AppError('API_FORBIDDEN', 'This credential manages its own company only.');
  };
  const t = d.tenantId;
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
  /** GET shows one settings area (masked), PUT replaces it from the validated body and shows the result. */
  const settingsArea = (path: string, show: () => Promise<unknown>, set: (body: unknown) => Promise<unknown>) => {
    app.get(path, async (req, reply) => (await guard(req, reply), noStore(reply).send(await show())));
    app.put(path, async (req, reply) => (await guard(req, reply), noStore(reply).send(await set(req.body))));
  };
  settingsArea(
    '/accounting',
    () => d.settings.showAccountingConnection(t),
    (body) => d.settings.setAccountingConnection(t, parseOrThrow(accountingConnectionSchema, body)),
  );
  settingsArea(
    '/sms',
    () => d.settings.showSmsConfig(t),
    (body) => d.settings.setSmsConfig(t, parseOrThrow(smsConfigSchema, body)),
  );
  app.post(
    '/sms/lines',
    async (req, reply) => (
      await guard(req, reply),
      noStore(reply)
        .code(201)
        .send(await d.settings.addSmsLine(t, parseOrThrow(smsLineSchema, req.body)))
    ),
  );
  app.post('/sms/messages', async (req, reply) => {
    await guard(req, reply);
    const m = parseOrThrow(smsMessageSchema, req.body);
    const queued = await d.sms.queue(t, { to: m.to, body: m.body, ...(m.line_type ? { lineType: m.line_type } : {}) });
    return noStore(reply).code(202).send({ id: queued.id, from: queued.from, status: 'queued' });
  });
  settingsArea(
    '/chat',
    () => d.settings.showChatConfig(t),
    (body) => d.settings.setChatConfig(t, parseOrThrow(chatConfigSchema, body)),
  );
}
