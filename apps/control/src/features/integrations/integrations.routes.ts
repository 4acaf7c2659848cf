/**
 * The signed-in tenant's integrations (owners and admins; docs/integrations.md, "The Integrations screen"):
 *   GET  /api/tenants/{id}/integrations                       → state of accounting, SMS and chat (no secrets)
 *   PUT  /api/tenants/{id}/integrations/sms                   → SMS credentials (sealed)
 *   POST /api/tenants/{id}/integrations/sms/lines             → 201, a phone line added
 *   PUT  /api/tenants/{id}/integrations/chat                  → webhook URL and the four flags
 *   POST /api/tenants/{id}/integrations/sms/test {to}         → 202, a test text queued
 *   GET  /api/tenants/{id}/integrations/sms/messages/{message_id} → that text's status
 *   POST /api/tenants/{id}/integrations/chat/test             → the test message posted, or why not
 *   POST /api/tenants/{id}/integrations/accounting/test       → one read at the provider, or why not
 *   POST /api/tenants/{id}/integrations/accounting/connect    → {authorize_url} to open in the browser
 *   POST /api/tenants/{id}/integrations/accounting/disconnect → grant revoked, tokens forgotten
 *   …/integrations/accounting/tax-mapping                      → tax-mapping.routes.ts
 */
import { chatConfigSchema, smsConfigSchema, smsLineSchema } from '@platform/integrations';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, requireRole } from '../auth/auth.guard.js';
import type { ControlIntegrations } from './integrations.service.js';
import { registerTaxMappingRoutes } from './tax-mapping.routes.js';

const uuid = z.uuid({ error: 'must be a UUID' });
const params = z.object({ id: uuid });
const base = '/api/tenants/:id/integrations';
// One ERP company per tenant on this screen: the company is not the caller's to choose.
const smsBody = smsConfigSchema.omit({ company_id: true });
const chatBody = chatConfigSchema.omit({ company_id: true });
const testSmsBody = z.strictObject({
  to: z.string({ error: 'is required' }).trim().min(4, 'must be a phone number').max(30, 'must be a phone number'),
});

export function registerIntegrationRoutes(
  app: FastifyInstance,
  catalogue: RouteCatalogue,
  deps: ControlDeps & { integrations: ControlIntegrations },
): void {
  const managers = [authenticate(deps), requireRole('owner', 'admin')];
  const actor = (req: FastifyRequest, id: string) => ({ principal: assertOwnTenant(req, id), ip: req.ip });
  const svc = deps.integrations;
  const common = { tags: ['integrations'], security: 'bearer' as const, preHandler: managers, params };

  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: base,
    summary: "The tenant's accounting connection, SMS and team chat: their state, never a secret",
    handler: async ({ params: p }, req) => svc.view(actor(req, p.id).principal.tenantId),
  });

  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: `${base}/sms`,
    summary: 'Save the SMS credentials (sealed; the replaced signing secret stays accepted for the overlap)',
    body: smsBody,
    responses: { '200': 'Saved: the integrations', '422': 'VALIDATION_FAILED' },
    handler: async ({ params: p, body }, req) => svc.setSms(actor(req, p.id), { ...body, company_id: 1 }),
  });

  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: `${base}/sms/lines`,
    summary: 'Add an SMS phone line (the first, or one marked default, becomes the default)',
    body: smsLineSchema,
    responses: { '201': 'Added: the integrations', '409': 'INTEGRATION_NOT_CONFIGURED', '422': 'VALIDATION_FAILED' },
    handler: async ({ params: p, body }, req, reply) =>
      reply.code(201).send(await svc.addSmsLine(actor(req, p.id), body)),
  });

  route(app, catalogue, {
    ...common,
    method: 'PUT',
    url: `${base}/chat`,
    summary: 'Save the team-chat webhook URL and its four flags (left out: kept as they are)',
    body: chatBody,
    responses: { '200': 'Saved: the integrations', '422': 'VALIDATION_FAILED' },
    handler: async ({ params: p, body }, req) => svc.setChat(actor(req, p.id), { ...body, company_id: 1 }),
  });

  route(app, catalogue, {
    ...common,
    method: 'POST',
    url: `${base}/sms/test`,
    summary: 'Send a test text to a number, from the default line (through the outbox)',
    body: testSmsBody,
    responses: { '202': 'Queued', '409': 'INTEGRATION_NOT_CONFIGURED', '422': 'VALIDATION_FAILED' },
    handler: async ({ params: p, body }, req, reply) =>
      reply.code(202).send(await svc.testSms(actor(req, p.id), body.to)),
  });

  route(app, catalogue, {
    ...common,
    method: 'GET',
    url: `${base}/sms/messages/:message_id`,
    summary: 'A text of the tenant: whether it was sent yet',
    params: z.object({ id: uuid, message_id: uuid }),
    responses: { '200': 'The text: from, to, status', '404': 'NOT_FOUND' },
    handler: async ({ params: p }, req) => svc.smsMessage(actor(req, p.id).principal.tenantId, p.message_id),
  });

  const action = (url: string, summary: string, run: (a: ReturnType<typeof actor>) => Promise<unknown>) =>
    route(app, catalogue, {
      ...common,
      method: 'POST',
      url: `${base}/${url}`,
      summary,
      responses: { '200': 'Done', '409': 'INTEGRATION_NOT_CONFIGURED' },
      handler: async ({ params: p }, req) => run(actor(req, p.id)),
    });
  action('chat/test', 'Post a test message to the team-chat space now: {ok, detail}', (a) => svc.testChat(a));
  action('accounting/test', 'Check the accounting connection with one read at the provider: {ok, detail}', (a) =>
    svc.testAccounting(a),
  );
  action('accounting/connect', "Start connecting: the provider's authorize URL for this tenant, to open", (a) =>
    svc.connectAccounting(a),
  );
  action('accounting/disconnect', 'Revoke the grant at the provider and forget the tokens', (a) =>
    svc.disconnectAccounting(a),
  );
  registerTaxMappingRoutes(app, catalogue, deps, svc.taxMapping);
}
