/**
 * The served OpenAPI 3.1 description is valid, lists every declared route with its security, and
 * documents request schemas from the same zod schemas that validate them.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../testing/control-test-kit.js';
import { buildControlPlaneOpenApi } from './control-openapi.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

describe('OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = (await kit.app.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const r = await new Validator().validate(doc as never);
    expect(r.errors ?? []).toEqual([]);
    expect(r.valid).toBe(true);
  });

  it('documents the plan change with its body enum, bearer security and problem answers', async () => {
    const doc = (await kit.app.inject({ url: '/openapi.json' })).json();
    const put = doc.paths['/api/tenants/{id}/plan'].put;
    expect(put.security).toEqual([{ bearer: [] }]);
    expect(put.requestBody.content['application/json'].schema.properties.plan.enum).toEqual([
      'free',
      'starter',
      'professional',
      'enterprise',
    ]);
    expect(put.responses.default.content['application/problem+json']).toBeDefined();
    expect(doc.components.schemas.Problem.properties.code.enum).toContain('PLAN_LIMIT_REACHED');
  });

  it('can be built for the docs site without a database, naming the server', async () => {
    const doc = await buildControlPlaneOpenApi('https://control.example.com');
    expect(doc.servers).toEqual([{ url: 'https://control.example.com' }]);
    expect(Object.keys(doc.paths as object)).toContain('/api/audit');
  });
});
