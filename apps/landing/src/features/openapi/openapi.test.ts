import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

import { startTestLanding } from '../../../test/support/landing-harness.js';
import { buildLandingOpenApi } from './openapi.js';
import { registerOpenApiRoutes } from './openapi.routes.js';

describe('landing OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document describing every public endpoint with its request fields', async () => {
    const doc = buildLandingOpenApi('http://localhost:8001');
    const r = await new Validator().validate(doc as never);
    expect(r.errors ?? []).toEqual([]);
    expect(r.valid).toBe(true);
    const paths = doc.paths as Record<string, any>;
    expect(Object.keys(paths).sort()).toEqual([
      '/api/estimate',
      '/api/helpdesk',
      '/api/lp/meta-capi',
      '/api/magnet-signup',
      '/health',
    ]);
    const estimate = paths['/api/estimate'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(estimate.properties)).toEqual(expect.arrayContaining(['name', 'email', 'form_source']));
  });

  it('is served at GET /openapi.json', async () => {
    const app = Fastify();
    registerOpenApiRoutes(app);
    const res = await app.inject('/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
    await app.close();
  });

  it('is served by the landing host, and its estimate schema rejects what the endpoint rejects', async () => {
    const h = await startTestLanding();
    try {
      const doc = await (await fetch(`${h.url}/openapi.json`)).json();
      const schema = doc.paths['/api/estimate'].post.requestBody.content['application/json'].schema;
      expect(schema.required).toEqual(expect.arrayContaining(['name']));
      // Without a name the endpoint answers 422 naming it, as the description's `required` says.
      const res = await h.post('/api/estimate', { email: 'x@example.com', captcha_token: await h.token() });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toContain('name');
    } finally {
      await h.close();
    }
  });
});
