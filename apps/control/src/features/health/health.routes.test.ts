/** Health of the control plane: live always answers; ready and /health fail when a readiness check does. */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadControlConfig } from '../../control.config.js';
import { buildControlApp } from '../../control.http-app.js';
import { composeControl, type ControlDeps } from '../../deps.js';

let t: TestDb;
let app: FastifyInstance;
let deps: ControlDeps;
beforeAll(async () => {
  t = await createTestDb();
  await migratePlatform(t.db);
  deps = composeControl(loadControlConfig({}), t.db);
  app = await buildControlApp(deps, { logger: false, bodyLimit: 65_536, trustProxy: false });
});
afterAll(async () => {
  await app?.close();
  await t?.drop();
});

describe('control plane health', () => {
  it('answers ok on /health, /health/ready and /health/live when the database answers', async () => {
    for (const url of ['/health', '/health/ready', '/health/live']) {
      const r = await app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.json().status).toBe('ok');
    }
  });

  it('is not ready (503, naming the check) while a registered dependency fails, but stays live', async () => {
    deps.readiness['erp:acme'] = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.9:8069'));
    try {
      const r = await app.inject({ url: '/health/ready' });
      expect(r.statusCode).toBe(503);
      expect(r.json().checks['erp:acme']).toEqual({ status: 'fail' });
      expect(r.body).not.toContain('10.0.0.9');
      expect((await app.inject({ url: '/health/live' })).statusCode).toBe(200);
    } finally {
      delete deps.readiness['erp:acme'];
    }
  });
});
