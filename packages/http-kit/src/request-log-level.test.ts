/**
 * `npm start`'s console: with `requestsAt: 'debug'` Fastify's per-request lines are debug lines (hidden at
 * the default info, shown with LOG_LEVEL=debug), while the app's own info lines and a failed request's
 * error line keep their level. Without the option requests stay at info (the standalone services).
 */
import { Writable } from 'node:stream';

import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

import { createLogger } from './logger.js';

async function linesOf(level: string, requestsAt?: 'info' | 'debug') {
  let out = '';
  const destination = new Writable({ write: (c, _e, done) => ((out += String(c)), done()) });
  const logger = createLogger(level, 'test', { destination, ...(requestsAt ? { requestsAt } : {}) });
  const app = Fastify({ loggerInstance: logger.child({ name: 'landing' }) });
  app.get('/ok', async (req) => (req.log.info('app line'), { ok: true }));
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  await app.inject({ url: '/ok' });
  await app.inject({ url: '/boom' });
  await app.close();
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { level: number; msg: string });
}

const find = (lines: { level: number; msg: string }[], msg: string) => lines.filter((l) => l.msg === msg);

describe('request log lines', () => {
  it("are debug lines with requestsAt 'debug': hidden at info, app lines and errors kept", async () => {
    const lines = await linesOf('info', 'debug');
    expect(find(lines, 'incoming request')).toEqual([]);
    expect(find(lines, 'request completed')).toEqual([]);
    expect(find(lines, 'app line')).toEqual([expect.objectContaining({ level: 30 })]);
    expect(find(lines, 'request errored').length + lines.filter((l) => l.level >= 50).length).toBeGreaterThan(0);
  });

  it('show at LOG_LEVEL=debug, as debug', async () => {
    const lines = await linesOf('debug', 'debug');
    expect(find(lines, 'request completed').map((l) => l.level)).toEqual([20, 20]);
  });

  it('stay at info without the option', async () => {
    const lines = await linesOf('info');
    expect(find(lines, 'request completed').map((l) => l.level)).toEqual([30, 30]);
  });
});
