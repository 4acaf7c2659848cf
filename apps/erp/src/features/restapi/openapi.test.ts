import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';

import { registerRestApiWithOAuth, type RestApiRoutes } from '../../erp.http-app.js';
import { buildOpenApi } from './openapi.js';

// Routes only: the document and the route table need no database or ERP.
const app = Fastify();
registerRestApiWithOAuth(app, {
  issuer: (req: FastifyRequest) => `${req.protocol}://${req.host}`,
} as unknown as RestApiRoutes);

describe('OpenAPI 3.1 description', () => {
  it('is served at /restapi/1.0/openapi.json without credentials, with this host as server', async () => {
    const res = await app.inject({ url: '/restapi/1.0/openapi.json', headers: { host: 'erp.example.test:8069' } });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; servers: { url: string }[] };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://erp.example.test:8069' }]);
  });

  it('is valid against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const res = await validator.validate(buildOpenApi('https://erp.example.com'));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes only routes that exist, and every REST and OAuth route', async () => {
    await app.ready();
    const doc = buildOpenApi('http://x') as { paths: Record<string, Record<string, unknown>> };
    const described: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'delete']) {
        if (!(method in item)) continue;
        described.push(`${method.toUpperCase()} ${path}`);
        expect(
          app.hasRoute({ method: method.toUpperCase() as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') }),
          `${method} ${path}`,
        ).toBe(true);
      }
    }
    expect(described).toEqual(
      expect.arrayContaining([
        'GET /restapi/1.0/object/{model}',
        'POST /restapi/1.0/object/{model}',
        'GET /restapi/1.0/object/{model}/{id}',
        'PUT /restapi/1.0/object/{model}/{id}',
        'DELETE /restapi/1.0/object/{model}/{id}',
        'POST /restapi/1.0/object/{model}/{id}/{method}',
        'GET /restapi/1.0/common/oauth2/authorize',
        'POST /restapi/1.0/common/oauth2/authorize',
        'POST /restapi/1.0/common/oauth2/access_token',
      ]),
    );
  });

  it('declares both security schemes: X-API-Key and OAuth2 authorization code', () => {
    const doc = buildOpenApi('https://erp.example.com') as {
      components: { securitySchemes: Record<string, Record<string, unknown>> };
    };
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://erp.example.com/restapi/1.0/common/oauth2/authorize',
          tokenUrl: 'https://erp.example.com/restapi/1.0/common/oauth2/access_token',
        },
      },
    });
  });
});
