/**
 * Customer messages (docs/messages.md): Settings → Customer messages and its preview (owners and
 * admins), a customer's message timeline and channel preference (the office).
 */
import { MESSAGE_CHANNELS } from '@platform/contracts/messages.js';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { ControlDeps } from '../../deps.js';
import { route, type RouteCatalogue } from '../../openapi/routes.js';
import { assertOwnTenant, authenticate, principalOf, requireRole } from '../auth/auth.guard.js';
import { MESSAGE_KINDS } from './message-kinds.js';

const tenant = z.object({ id: z.uuid({ error: 'must be a UUID' }) });
const customer = z.object({
  id: z.coerce
    .number()
    .int('must be a customer id')
    .positive('must be a customer id')
    .max(2_147_483_647, 'must be a customer id'),
});
const kind = z.enum(MESSAGE_KINDS, { error: `must be one of ${MESSAGE_KINDS.join(', ')}` });
const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const whole = (min: number, max: number) =>
  z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);
const settingsBody = z.strictObject({
  reminder_hour: whole(0, 23),
  review_link: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(500)
    .nullable(),
  review_delay_hours: whole(0, 720),
  quote_follow_up_days: whole(1, 90),
  invoice_reminder_days: whole(1, 90),
  kinds: z
    .array(z.strictObject({ kind, enabled: z.boolean(), sms: text(1000), subject: text(200), email: text(5000) }))
    .max(MESSAGE_KINDS.length),
});
const previewBody = z.strictObject({
  kind,
  sms: text(1000).optional(),
  subject: text(200).optional(),
  email: text(5000).optional(),
});

export function registerMessageRoutes(app: FastifyInstance, catalogue: RouteCatalogue, deps: ControlDeps): void {
  const managers = {
    tags: ['messages'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin')],
    params: tenant,
  };
  const office = {
    tags: ['messages'],
    security: 'bearer' as const,
    preHandler: [authenticate(deps), requireRole('owner', 'admin', 'office')],
    params: customer,
  };
  const m = deps.messages.office;
  route(app, catalogue, {
    ...managers,
    method: 'GET',
    url: '/api/tenants/:id/messages',
    summary: 'Customer messages: each kind on or off with its text and email templates, the reminder hour and delays',
    handler: ({ params }, req) => m.settings(assertOwnTenant(req, params.id).tenantId),
  });
  route(app, catalogue, {
    ...managers,
    method: 'PUT',
    url: '/api/tenants/:id/messages',
    summary: 'Save the customer messages settings (templates with unknown placeholders are refused)',
    body: settingsBody,
    responses: { '200': 'The settings saved', '422': 'VALIDATION_FAILED' },
    handler: ({ params, body }, req) => m.save(assertOwnTenant(req, params.id), body, req.ip),
  });
  route(app, catalogue, {
    ...managers,
    method: 'POST',
    url: '/api/tenants/:id/messages/preview',
    summary: "A message kind's text and email filled with sample values (the templates given, else the saved ones)",
    body: previewBody,
    handler: ({ params, body }, req) => m.preview(assertOwnTenant(req, params.id).tenantId, body),
  });
  route(app, catalogue, {
    ...office,
    method: 'GET',
    url: '/customers/:id/messages',
    summary: "The customer's messages, newest first: kind, channels, sent or skipped and why; their channel preference",
    handler: ({ params }, req) => m.timeline(principalOf(req).tenantId, params.id),
  });
  route(app, catalogue, {
    ...office,
    method: 'PUT',
    url: '/customers/:id/message-channel',
    summary: 'How the customer wants automatic messages: sms, email or both',
    body: z.strictObject({ channel: z.enum(MESSAGE_CHANNELS, { error: 'must be sms, email or both' }) }),
    handler: ({ params, body }, req) => m.setChannel(principalOf(req), params.id, body.channel, req.ip),
  });
}
