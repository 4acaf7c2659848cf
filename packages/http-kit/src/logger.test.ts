import { Writable } from 'node:stream';

import { createTestDb, type TestDb } from '@platform/db';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loggerOptions } from './logger.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

function capture(): { log: pino.Logger; text: () => string } {
  let out = '';
  const sink = new Writable({ write: (c, _e, done) => ((out += String(c)), done()) });
  return { log: pino(loggerOptions('info', 'test'), sink), text: () => out };
}

describe('error log lines', () => {
  it('keep the database error code but never the submitted values the database quoted', async () => {
    const email = 'private.person@example.com';
    const errors: unknown[] = [];
    await t.db
      .query('SELECT $1::jsonb', [JSON.stringify({ email, note: 'a\u0000b' })])
      .catch((e: unknown) => errors.push(e));
    await t.db.query('SELECT $1::uuid', [email]).catch((e: unknown) => errors.push(e));
    await t.db.query('SELECT $1::text', [`${email}\u0000`]).catch((e: unknown) => errors.push(e));
    expect(errors.length).toBeGreaterThanOrEqual(2);
    const { log, text } = capture();
    for (const err of errors) log.error({ err }, 'unhandled error');
    log.error({ err: new Error('wrapped', { cause: errors[1] }) }, 'unhandled error');
    expect(text()).not.toContain('private.person');
    const lines = text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].err.code).toMatch(/^[0-9A-Z]{5}$/);
  });
});
