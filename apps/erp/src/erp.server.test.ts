import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDb, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ErpConfig, loadErpConfig } from './erp.config.js';
import { startErp } from './erp.server.js';

const dir = mkdtempSync(join(tmpdir(), 'erp-server-'));
// A first start creates a data directory and an ERP database; on PGlite on a loaded machine that alone
// has taken over 20 s, so these tests get more than the suite's 30 s.
const SLOW = 120_000;
let scratch: TestDb | undefined;
let config: ErpConfig;

// On the PostgreSQL run the server gets DATABASE_URL = a scratch database; otherwise its own PGlite.
beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) scratch = await createTestDb();
  config = loadErpConfig({
    DATA_DIR: dir,
    ERP_PORT: '0',
    ERP_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: scratch?.url,
  });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await scratch?.drop();
});
const rpc = async (url: string, service: string, method: string, args: unknown[]) => {
  const res = await fetch(`${url}/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'call', params: { service, method, args }, id: 1 }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
};

describe('startErp', () => {
  it(
    'creates the default database, a 0600 admin password and platform API key, and serves them',
    async () => {
      const server = await startErp(config);
      try {
        const password = readFileSync(join(dir, 'erp-admin-password'), 'utf8').trim();
        const key = readFileSync(join(dir, 'erp-platform-api-key'), 'utf8').trim();
        expect(statSync(join(dir, 'erp-admin-password')).mode & 0o777).toBe(0o600);
        expect(statSync(join(dir, 'erp-platform-api-key')).mode & 0o777).toBe(0o600);
        expect(key).toMatch(/^[0-9a-f]{40}$/);
        expect((await rpc(server.url, 'common', 'authenticate', ['platform', 'admin', password, {}])).result).toBe(2);
        expect((await rpc(server.url, 'common', 'authenticate', ['platform', 'admin', key, {}])).result).toBe(2);
        expect(
          (await rpc(server.url, 'object', 'execute_kw', ['platform', 2, key, 'helpdesk.team', 'search_count', [[]]]))
            .result,
        ).toBe(1);
      } finally {
        await server.close();
      }
    },
    SLOW,
  );

  it(
    'keeps the same key across restarts and replaces a revoked one',
    async () => {
      const key = readFileSync(join(dir, 'erp-platform-api-key'), 'utf8').trim();
      let server = await startErp(config);
      try {
        expect(readFileSync(join(dir, 'erp-platform-api-key'), 'utf8').trim()).toBe(key);
        const [k] = (await server.erp.listApiKeys('platform')).filter((x) => x.name === 'platform integration');
        await server.erp.revokeApiKey('platform', k!.id);
      } finally {
        await server.close();
      }
      server = await startErp(config);
      try {
        const fresh = readFileSync(join(dir, 'erp-platform-api-key'), 'utf8').trim();
        expect(fresh).not.toBe(key);
        expect((await rpc(server.url, 'common', 'authenticate', ['platform', 'admin', fresh, {}])).result).toBe(2);
        expect((await rpc(server.url, 'common', 'authenticate', ['platform', 'admin', key, {}])).result).toBe(false);
      } finally {
        await server.close();
      }
    },
    SLOW,
  );
});

describe('startErp on one PostgreSQL', () => {
  it(
    'two replicas starting at once both serve the same database with a live platform key',
    async (ctx) => {
      if (!process.env.TEST_DATABASE_URL) return ctx.skip(); // a PGlite data directory has one process
      const db = await createTestDb();
      const shared = mkdtempSync(join(tmpdir(), 'erp-replicas-'));
      const cfg = loadErpConfig({
        DATA_DIR: shared,
        ERP_PORT: '0',
        ERP_HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATABASE_URL: db.url,
      });
      try {
        const started = await Promise.allSettled([startErp(cfg), startErp(cfg)]);
        const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        try {
          expect(started.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
          const key = readFileSync(join(shared, 'erp-platform-api-key'), 'utf8').trim();
          for (const server of servers) {
            expect(await server.erp.listDatabases()).toEqual(['platform']);
            expect((await rpc(server.url, 'common', 'authenticate', ['platform', 'admin', key, {}])).result).toBe(2);
          }
        } finally {
          await Promise.all(servers.map((x) => x.close()));
        }
      } finally {
        rmSync(shared, { recursive: true, force: true });
        await db.drop();
      }
    },
    SLOW,
  );
});
