import { fingerprint } from '@platform/intake';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../../../test/support/landing-harness.js';

let h: TestLanding;
beforeAll(async () => {
  h = await startTestLanding({ DEDUPE_WINDOW_SECONDS: '0' });
});
afterAll(() => h.close());

const body = (email: string) => ({ name: 'Idem Potent', email, products: ['wood-blinds'] });
const submissionsFor = async (email: string) =>
  (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM submissions WHERE payload->>'email' = $1`, [email]))
    .rows[0]!.n;

describe('Idempotency-Key on /api/estimate', () => {
  it('a repeat with the same body gets the first answer and creates nothing new', async () => {
    const key = 'retry-key-1';
    const first = await h.post(
      '/api/estimate',
      { ...body('k1@example.com'), captcha_token: await h.token() },
      { 'idempotency-key': key },
    );
    // The retry carries the same (already spent) token: it must still be answered, not refused by the bot check.
    const again = await h.post(
      '/api/estimate',
      { ...body('k1@example.com'), captcha_token: 'spent-token' },
      { 'idempotency-key': key },
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await submissionsFor('k1@example.com')).toBe(1);
  });

  it('the same key with another body: 422 and nothing new', async () => {
    const key = 'retry-key-2';
    await h.post(
      '/api/estimate',
      { ...body('k2@example.com'), captcha_token: await h.token() },
      { 'idempotency-key': key },
    );
    const other = await h.post(
      '/api/estimate',
      { ...body('k2-other@example.com'), captcha_token: await h.token() },
      { 'idempotency-key': key },
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await submissionsFor('k2-other@example.com')).toBe(0);
  });

  it('ten concurrent requests with one key create one submission and all get its id', async () => {
    const tokens = await Promise.all(Array.from({ length: 10 }, () => h.token()));
    const answers = await Promise.all(
      tokens.map((t) =>
        h.post('/api/estimate', { ...body('k3@example.com'), captcha_token: t }, { 'idempotency-key': 'burst-key' }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await submissionsFor('k3@example.com')).toBe(1);
  });

  it('keys are scoped per endpoint: the same key on /api/helpdesk is a separate request', async () => {
    await h.post(
      '/api/estimate',
      { ...body('k4@example.com'), captcha_token: await h.token() },
      { 'idempotency-key': 'shared-key' },
    );
    const r = await h.post(
      '/api/helpdesk',
      {
        name: 'K4',
        email: 'k4@example.com',
        subject: 'Hi',
        message: 'Hello',
        captcha_token: await h.token('helpdesk'),
      },
      { 'idempotency-key': 'shared-key' },
    );
    expect(r.status).toBe(201);
  });

  it('a key that is too long or not visible ASCII: 400', async () => {
    for (const key of ['x'.repeat(256), 'has space', 'clé']) {
      const r = await h.post(
        '/api/estimate',
        { ...body('k5@example.com'), captcha_token: await h.token() },
        { 'idempotency-key': key },
      );
      expect(r.status, key).toBe(400);
      expect(r.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
    expect(await submissionsFor('k5@example.com')).toBe(0);
  });

  it('an answer stored with an HTTP status (before outcomes were stored) still replays as it was', async () => {
    const made = await h.post('/api/estimate', { ...body('k6@example.com'), captcha_token: await h.token() });
    const tenant = (
      await h.db.query<{ tenant_id: string }>('SELECT tenant_id FROM submissions WHERE id = $1', [made.body.id])
    ).rows[0]!.tenant_id;
    await h.db.query(
      `INSERT INTO idempotency_keys (tenant_id, route, key, fingerprint, status_code, response)
       VALUES ($1, 'estimate', 'stored-before-outcomes', $2, 201, $3)`,
      [
        tenant,
        fingerprint('estimate', body('k7@example.com')),
        JSON.stringify({ id: 'earlier-id', status: 'accepted' }),
      ],
    );
    const r = await h.post(
      '/api/estimate',
      { ...body('k7@example.com'), captcha_token: 'spent-token' },
      { 'idempotency-key': 'stored-before-outcomes' },
    );
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: 'earlier-id', status: 'accepted' });
    expect(r.headers.get('idempotent-replayed')).toBe('true');
    expect(await submissionsFor('k7@example.com')).toBe(0);
  });
});
