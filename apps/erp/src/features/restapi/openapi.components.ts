/**
 * The reusable parts of the REST API's OpenAPI document (openapi.ts): the security schemes (API key,
 * OAuth2 authorization code with PKCE) and the schemas the paths refer to by `$ref`.
 */
import { problemOpenApiSchema } from '@platform/http-kit';

export const OAUTH = '/restapi/1.0/common/oauth2';

export function openApiComponents(serverUrl: string): Record<string, unknown> {
  return {
    securitySchemes: {
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'Per-user key erpk_<prefix>_<secret>, shown once at creation',
      },
      oauth2: {
        type: 'oauth2',
        description:
          'Authorization code with PKCE (S256 only). Scopes: read:<model>, write:<model>, method:<model>.<method>.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${serverUrl}${OAUTH}/authorize`,
            tokenUrl: `${serverUrl}${OAUTH}/access_token`,
            refreshUrl: `${serverUrl}${OAUTH}/access_token`,
            scopes: {
              'read:res.partner': 'Read contacts',
              'write:res.partner': 'Create, change and delete contacts',
              'read:crm.lead': 'Read leads',
              'write:crm.lead': 'Create, change and delete leads',
              'method:sale.order.action_confirm': 'Confirm sale orders',
            },
          },
        },
      },
    },
    schemas: {
      Problem: problemOpenApiSchema(),
      OAuthError: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'string' }, error_description: { type: 'string' } },
      },
      TokenResponse: {
        type: 'object',
        required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
        properties: {
          access_token: { type: 'string' },
          token_type: { const: 'Bearer' },
          expires_in: { type: 'integer' },
          refresh_token: { type: 'string' },
          scope: { type: 'string' },
        },
      },
      Record: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer' } },
        additionalProperties: true,
      },
      Values: { type: 'object', additionalProperties: true, example: { name: 'Acme', email: 'info@acme.example' } },
      Page: {
        type: 'object',
        required: ['model', 'total', 'offset', 'limit', 'records'],
        properties: {
          model: { type: 'string' },
          total: { type: 'integer' },
          offset: { type: 'integer' },
          limit: { type: 'integer' },
          records: { type: 'array', items: { $ref: '#/components/schemas/Record' } },
        },
      },
      MethodCall: {
        type: 'object',
        properties: { args: { type: 'array' }, kwargs: { type: 'object' } },
        additionalProperties: false,
      },
    },
  };
}
