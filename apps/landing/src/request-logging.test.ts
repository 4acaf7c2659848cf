import { Writable } from 'node:stream';

import { loggerOptions } from '@platform/http-kit';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestLanding, type TestLanding } from '../test/support/landing-harness.js';

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    done();
  },
});
let h: TestLanding;
beforeAll(async () => {
  const logger = pino(loggerOptions('info', 'landing'), sink) as unknown as FastifyBaseLogger;
  h = await startTestLanding({}, { logger });
});
afterAll(() => h.close());

describe('request logs', () => {
  it('are JSON lines that carry the request id, and never the bot-check token, keys or personal data', async () => {
    const token = await h.token();
    const r = await h.post(
      '/api/estimate',
      { name: 'Log Check', email: 'private.person@example.com', phone: '3035550199', captcha_token: token },
      { 'idempotency-key': 'idem-SECRET-123', authorization: 'Bearer abc.def.ghi', 'x-request-id': 'trace-42' },
    );
    expect(r.status).toBe(201);
    expect(r.headers.get('x-request-id')).toBe('trace-42');
    await h.post('/api/estimate', { name: 'Bad', email: 'x@example.com', captcha_token: 'forged-TOKEN-xyz' });
    const requestLines = lines.filter((l) => 'req' in l || 'res' in l || 'reqId' in l);
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const l of requestLines) expect(l.reqId, JSON.stringify(l)).toEqual(expect.any(String));
    expect(requestLines.some((l) => l.reqId === 'trace-42')).toBe(true);
    const all = JSON.stringify(lines);
    for (const secret of [
      token,
      'forged-TOKEN-xyz',
      'idem-SECRET-123',
      'abc.def.ghi',
      'private.person@example.com',
      '3035550199',
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});
