/**
 * The OpenAPI 3.1 description of the REST API, served at /restapi/1.0/openapi.json: its paths here, the
 * security schemes and shared schemas in openapi.components.ts.
 */
import { OAUTH, openApiComponents } from './openapi.components.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
const oauthError = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/OAuthError' }) });

const modelParam = {
  name: 'model',
  in: 'path',
  required: true,
  description: 'ERP model, e.g. res.partner, crm.lead, sale.order, account.move, fsm.order',
  schema: { type: 'string', pattern: '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$' },
};
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
const fieldsParam = {
  name: 'fields',
  in: 'query',
  description: 'Comma-separated field names (default: all)',
  schema: { type: 'string' },
  example: 'name,email',
};
const security = [{ apiKey: [] }, { oauth2: [] }];
const authErrors = {
  '401': problem('API_UNAUTHENTICATED: missing, unknown, revoked or expired credential'),
  '403': problem('API_FORBIDDEN: the scope does not cover this model and operation'),
  '404': problem('MODEL_NOT_FOUND, RECORD_NOT_FOUND or METHOD_NOT_FOUND'),
  '429': {
    ...problem('RATE_LIMITED: per-credential limit exceeded'),
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } },
  },
};
const writeErrors = {
  ...authErrors,
  '422': problem('VALIDATION_FAILED (request shape) or ERP_VALIDATION (the ERP refused the values)'),
};
const recordResponse = (description: string) => ({ description, ...json({ $ref: '#/components/schemas/Record' }) });

const tokenForm = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required: ['grant_type'],
        properties: {
          grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
          code: { type: 'string' },
          redirect_uri: { type: 'string' },
          code_verifier: { type: 'string', description: 'PKCE verifier (required with authorization_code)' },
          refresh_token: { type: 'string' },
          scope: { type: 'string', description: 'With refresh_token: a subset of the granted scope' },
          client_id: { type: 'string', description: 'client_secret_post' },
          client_secret: { type: 'string', description: 'client_secret_post' },
        },
      },
    },
  },
};

export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'ERP REST API',
      version: '1.0',
      description:
        'Records of the ERP (Odoo 15 conventions: false for empty, many2one as [id, name]). Authenticate with X-API-Key or an OAuth2 access token (authorization code + PKCE S256). See docs/rest-api.md.',
    },
    servers: [{ url: serverUrl }],
    security,
    paths: {
      '/restapi/1.0/object/{model}': {
        parameters: [modelParam],
        get: {
          operationId: 'listRecords',
          summary: 'Search and read records (scope read:<model>)',
          parameters: [
            {
              name: 'domain',
              in: 'query',
              description: 'Odoo domain as JSON',
              schema: { type: 'string' },
              example: '[["is_company","=",true]]',
            },
            fieldsParam,
            {
              name: 'limit',
              in: 'query',
              description: 'Page size (default 80, capped at the maximum, 500 by default)',
              schema: { type: 'integer', minimum: 1 },
            },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
            { name: 'order', in: 'query', schema: { type: 'string' }, example: 'name asc, id desc' },
          ],
          responses: {
            '200': { description: 'One page and the total', ...json({ $ref: '#/components/schemas/Page' }) },
            ...writeErrors,
          },
        },
        post: {
          operationId: 'createRecord',
          summary: 'Create a record (scope write:<model>)',
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/Values' }) },
          responses: {
            '201': {
              ...recordResponse('The created record (only {id} without read scope)'),
              headers: { Location: { schema: { type: 'string' } } },
            },
            ...writeErrors,
          },
        },
      },
      '/restapi/1.0/object/{model}/{id}': {
        parameters: [modelParam, idParam],
        get: {
          operationId: 'readRecord',
          summary: 'Read one record (scope read:<model>)',
          parameters: [fieldsParam],
          responses: { '200': recordResponse('The record'), ...authErrors },
        },
        put: {
          operationId: 'writeRecord',
          summary: 'Update a record (scope write:<model>)',
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/Values' }) },
          responses: { '200': recordResponse('The updated record (only {id} without read scope)'), ...writeErrors },
        },
        delete: {
          operationId: 'unlinkRecord',
          summary: 'Delete a record (scope write:<model>)',
          responses: { '204': { description: 'Deleted' }, ...writeErrors },
        },
      },
      '/restapi/1.0/object/{model}/{id}/{method}': {
        parameters: [
          modelParam,
          idParam,
          {
            name: 'method',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^(action|button)_[a-z0-9_]+$' },
            example: 'action_confirm',
          },
        ],
        post: {
          operationId: 'callMethod',
          summary: 'Call a public business method on a record (scope method:<model>.<method>)',
          requestBody: { required: false, ...json({ $ref: '#/components/schemas/MethodCall' }) },
          responses: {
            '200': {
              description: 'What the method returned',
              ...json({ type: 'object', required: ['result'], properties: { result: {} } }),
            },
            ...writeErrors,
          },
        },
      },
      [`${OAUTH}/authorize`]: {
        get: {
          operationId: 'authorize',
          summary: 'Consent page (authorization code flow, PKCE S256 required)',
          security: [],
          parameters: [
            'response_type',
            'client_id',
            'redirect_uri',
            'scope',
            'state',
            'code_challenge',
            'code_challenge_method',
          ].map((name) => ({
            name,
            in: 'query',
            required: !['scope', 'state'].includes(name),
            schema: { type: 'string' },
          })),
          responses: {
            '200': {
              description: 'The sign-in and consent form',
              content: { 'text/html': { schema: { type: 'string' } } },
            },
            '302': {
              description: 'Error redirect to the registered redirect_uri (error, error_description, state, iss)',
            },
            '400': {
              description: 'Unknown client or unregistered redirect_uri (never redirected)',
              content: { 'text/html': { schema: { type: 'string' } } },
            },
          },
        },
        post: {
          operationId: 'approve',
          summary: 'Sign in and approve or deny (form posted by the consent page; CSRF-protected)',
          security: [],
          responses: {
            '303': { description: 'Redirect to redirect_uri with code, state and iss (or error=access_denied)' },
            '401': { description: 'Wrong login or password (form shown again)' },
            '403': { description: 'CSRF check failed' },
          },
        },
      },
      [`${OAUTH}/access_token`]: {
        post: {
          operationId: 'token',
          summary:
            'Token endpoint (alias /token): authorization_code or refresh_token; client_secret_basic or client_secret_post',
          security: [],
          requestBody: tokenForm,
          responses: {
            '200': { description: 'Tokens', ...json({ $ref: '#/components/schemas/TokenResponse' }) },
            '400': oauthError('RFC 6749 §5.2 error'),
            '401': oauthError('invalid_client'),
          },
        },
      },
      [`${OAUTH}/revoke`]: {
        post: {
          operationId: 'revoke',
          summary: 'RFC 7009 revocation: revokes the whole grant of the token',
          security: [],
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
              },
            },
          },
          responses: {
            '200': { description: 'Revoked (also for unknown tokens)' },
            '401': oauthError('invalid_client'),
          },
        },
      },
      '/restapi/1.0/openapi.json': {
        get: {
          operationId: 'openapi',
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1', ...json({ type: 'object' }) } },
        },
      },
    },
    components: openApiComponents(serverUrl),
  };
}
