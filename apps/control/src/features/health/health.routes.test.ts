/** Health of the control plane: live always answers; ready and /health fail when a readiness check does. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

let kit: ControlKit;
beforeAll(async () => {
  kit = await startControlKit();
});
afterAll(async () => kit?.close());

describe('control plane health', () => {
  it('answers ok on /health, /health/ready and /health/live when the database answers', async () => {
    for (const url of ['/health', '/health/ready', '/health/live']) {
      const r = await kit.app.inject({ url });
      expect(r.statusCode, url).toBe(200);
      expect(r.json().status).toBe('ok');
    }
  });

  it('is not ready (503, naming the check) while a registered dependency fails, but stays live', async () => {
    kit.deps.readiness['erp:acme'] = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.9:8069'));
    try {
      const r = await kit.app.inject({ url: '/health/ready' });
      expect(r.statusCode).toBe(503);
      expect(r.json().checks['erp:acme']).toEqual({ status: 'fail' });
      expect(r.body).not.toContain('10.0.0.9');
      expect((await kit.app.inject({ url: '/health/live' })).statusCode).toBe(200);
    } finally {
      delete kit.deps.readiness['erp:acme'];
    }
  });
});
