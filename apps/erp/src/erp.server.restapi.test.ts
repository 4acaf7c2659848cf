/** The REST API as `startErp` composes it: platform tables migrated, in-process Erp adapter on the platform key. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDb, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadErpConfig } from './erp.config.js';
import { startErp } from './erp.server.js';

const dir = mkdtempSync(join(tmpdir(), 'erp-restapi-'));
const SLOW = 120_000;
let scratch: TestDb | undefined;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) scratch = await createTestDb();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await scratch?.drop();
});

const env = (extra: Record<string, string> = {}) =>
  loadErpConfig({
    DATA_DIR: dir,
    ERP_PORT: '0',
    ERP_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: scratch?.url,
    ERP_ADMIN_PASSWORD: 'pw',
    ...extra,
  });

describe('startErp with the REST API', () => {
  it(
    'serves /restapi/1.0 with keys from the platform tables, through the embedded ERP',
    async () => {
      const server = await startErp(env({ RESTAPI_RATE_LIMIT: '50' }));
      try {
        const { key } = await server.restapi!.keys.create({
          login: 'admin',
          description: 'server test',
          scope: 'read:res.partner write:res.partner',
        });
        const created = await fetch(`${server.url}/restapi/1.0/object/res.partner`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Via server' }),
        });
        expect(created.status).toBe(201);
        const list = await fetch(
          `${server.url}/restapi/1.0/object/res.partner?fields=name&domain=${encodeURIComponent('[["name","=","Via server"]]')}`,
          { headers: { 'x-api-key': key } },
        );
        expect(await list.json()).toMatchObject({ total: 1, records: [{ name: 'Via server' }] });
        const meta = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
          issuer: string;
        };
        expect(meta.issuer).toBe(server.url);
        expect((await fetch(`${server.url}/restapi/1.0/openapi.json`)).status).toBe(200);
        // The JSON-RPC routes outside the REST scope keep Odoo's envelopes.
        const rpc = await fetch(`${server.url}/jsonrpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","method":"call","params":{"service":"common","method":"version","args":[]},"id":1}',
        });
        expect(((await rpc.json()) as { result: { server_serie: string } }).result.server_serie).toBe('15.0');
      } finally {
        await server.close();
      }
    },
    SLOW,
  );

  it(
    'RESTAPI=off mounts nothing under /restapi',
    async () => {
      const server = await startErp(env({ RESTAPI: 'off' }));
      try {
        expect(server.restapi).toBeUndefined();
        expect((await fetch(`${server.url}/restapi/1.0/openapi.json`)).status).toBe(404);
      } finally {
        await server.close();
      }
    },
    SLOW,
  );
});
