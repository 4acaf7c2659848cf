import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

describe('GET /health', () => {
  let h: TestLanding;
  beforeAll(async () => {
    h = await startTestLanding();
  });
  afterAll(() => h.close());

  it('answers {"status":"ok"} while the database answers, and 503 naming the database when it does not', async () => {
    {
      const ok = await fetch(`${h.url}/health`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ status: 'ok' });
      await h.db.close();
      const down = await fetch(`${h.url}/health`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: 'fail', checks: { database: { status: 'fail' } } });
      // A submission while the database is down is a clear 503 problem, never a 500.
      const post = await h.post('/api/estimate', { name: 'X', email: 'x@example.com', captcha_token: await h.token() });
      expect(post.status).toBe(503);
      expect(post.body.code).toBe('DATABASE_UNAVAILABLE');
    }
  });
});
