/**
 * The OpenAPI 3.1 description of the public landing API, generated from the same zod schemas the
 * routes validate with (so it cannot drift from them); served at GET /openapi.json and rendered by the
 * docs site's API reference.
 */
import { problemOpenApiSchema } from '@platform/http-kit';
import { z } from 'zod';

import { capiLeadSchema } from '../conversions/capi.schemas.js';
import { estimateSchema, helpdeskSchema } from '../intake/intake.schemas.js';
import { magnetSchema } from '../magnet/magnet.schemas.js';

const body = (schema: z.ZodType) => {
  const { $schema, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  void $schema;
  return { required: true, content: { 'application/json': { schema: json } } };
};
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
const idem = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Retries with the same key get the first answer (header `idempotent-replayed: true`).',
  schema: { type: 'string', maxLength: 255 },
};
const accepted = (status: string) => ({
  description: 'Committed durably; delivered to the ERP by the worker.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['id', 'status'],
        properties: { id: { type: 'string' }, status: { type: 'string', const: status } },
      },
    },
  },
});
const errors = {
  '400': problem('MALFORMED_JSON or BAD_REQUEST'),
  '403': problem('CAPTCHA_MISSING or CAPTCHA_REJECTED'),
  '409': problem('IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_REQUEST_IN_PROGRESS'),
  '413': problem('PAYLOAD_TOO_LARGE'),
  '415': problem('UNSUPPORTED_MEDIA_TYPE'),
  '422': problem('VALIDATION_FAILED: `errors[]` names each field and rule'),
  '429': problem('RATE_LIMITED'),
  '503': problem('DATABASE_UNAVAILABLE or CAPTCHA_UNAVAILABLE'),
};

export function buildLandingOpenApi(serverUrl?: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Landing host public API',
      version: '1.0.0',
      description:
        'Lead intake of the public website (docs/public-api.md). Every error is an RFC 9457 problem with a stable `code` (docs/errors.md).',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths: {
      '/api/estimate': {
        post: {
          operationId: 'submitEstimate',
          summary: 'Estimate or callback request: becomes an ERP crm.lead',
          parameters: [idem],
          requestBody: body(estimateSchema),
          responses: { '201': accepted('accepted'), ...errors },
        },
      },
      '/api/helpdesk': {
        post: {
          operationId: 'submitHelpdesk',
          summary: 'Support request: becomes an ERP helpdesk.ticket',
          parameters: [idem],
          requestBody: body(helpdeskSchema),
          responses: { '201': accepted('accepted'), ...errors },
        },
      },
      '/api/magnet-signup': {
        post: {
          operationId: 'magnetSignup',
          summary: 'Lead-magnet newsletter sign-up (5 per minute per client)',
          requestBody: body(magnetSchema),
          responses: { '201': accepted('subscribed'), '410': problem('FEATURE_GONE'), ...errors },
        },
      },
      '/api/lp/meta-capi': {
        post: {
          operationId: 'metaCapiLead',
          summary: 'Landing-page conversion event, relayed to Meta Conversions API',
          requestBody: body(capiLeadSchema),
          responses: { '202': { description: 'Queued' }, ...errors },
        },
      },
      '/health': {
        get: {
          operationId: 'health',
          summary: 'Liveness and database check',
          responses: { '200': { description: 'Healthy' }, '503': { description: 'Database unreachable' } },
        },
      },
    },
    components: {
      schemas: {
        Problem: problemOpenApiSchema(),
      },
    },
  };
}
