/** The ERP host's log is not buried by the worker's polling: routine JSON-RPC calls log at debug. */
import { Writable } from 'node:stream';

import { createTestDb, type TestDb } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { composeErpApp } from './deps.js';

let t: TestDb;
const lines: Array<{ level: number; msg: string; url?: string; statusCode?: number }> = [];
let app: ReturnType<typeof composeErpApp>;
beforeAll(async () => {
  t = await createTestDb();
  const sink = new Writable({ write: (chunk, _e, cb) => (lines.push(JSON.parse(String(chunk))), cb()) });
  app = composeErpApp({
    erp: new EmbeddedErp(t.db),
    logger: pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger,
  });
});
afterAll(async () => {
  await app?.close();
  await t?.drop();
});

describe('ERP request logging at info', () => {
  it('omits successful JSON-RPC polls and keeps failures and other requests', async () => {
    const rpc = (method: string) =>
      app.inject({
        method: 'POST',
        url: '/jsonrpc',
        payload: { jsonrpc: '2.0', method: 'call', id: 1, params: { service: 'common', method, args: [] } },
      });
    for (let i = 0; i < 6; i++) expect((await rpc('version')).statusCode).toBe(200);
    await app.inject({ method: 'GET', url: '/no-such-page' });
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed.filter((l) => l.url === '/jsonrpc')).toHaveLength(0);
    expect(completed.filter((l) => l.url === '/no-such-page')).toEqual([
      expect.objectContaining({ level: 30, statusCode: 404 }),
    ]);
  });
});
