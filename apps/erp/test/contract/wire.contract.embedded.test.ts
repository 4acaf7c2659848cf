/**
 * The wire contract against the embedded ERP, started with `startErp` (apps/erp) from its config
 * loader on a random loopback port, with its own PGlite under a temporary DATA_DIR (or a scratch
 * PostgreSQL database with TEST_DATABASE_URL), reached over real HTTP.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDb } from '@platform/db';
import { defineWireContract } from '@platform/erp/contract/wire.contract.js';
import { xmlrpcCall } from '@platform/erp/contract/xmlrpc-wire.js';

import { loadErpConfig } from '../../src/erp.config.js';
import { startErp } from '../../src/erp.server.js';

defineWireContract('embedded ERP', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'erp-wire-'));
  const scratch = process.env.TEST_DATABASE_URL ? await createTestDb() : undefined;
  const db = 'wire';
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const server = await startErp(
    loadErpConfig({
      ERP_PORT: '0',
      ERP_HOST: '127.0.0.1',
      ERP_DB: db,
      ERP_ADMIN_PASSWORD: password,
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url,
      LOG_LEVEL: 'silent',
    }),
  ).catch(async (e: unknown) => {
    await scratch?.drop();
    throw e;
  });
  const key = (await readFile(join(dataDir, 'erp-platform-api-key'), 'utf8')).trim();
  const kw = async (model: string, method: string, args: unknown[]) => {
    const r = await xmlrpcCall(`${server.url}/xmlrpc/2/object`, 'execute_kw', [db, 2, key, model, method, args]);
    if (r.fault) throw new Error(`setup ${model}.${method}: ${String(r.fault.faultString)}`);
    return r.value as number;
  };
  const tag = await kw('crm.tag', 'create', [{ name: 'Wire contract' }]);
  const lead = await kw('crm.lead', 'create', [
    { name: 'Wire contract lead', email_from: 'wire@example.com', tag_ids: [[6, 0, [tag]]] },
  ]);
  const po = await kw('purchase.order', 'create', [
    { partner_id: await kw('res.partner', 'create', [{ name: 'Wire vendor' }]) },
  ]);
  return {
    url: server.url,
    db,
    login: 'admin',
    key,
    password,
    uid: 2,
    ids: { lead, tag, po },
    async teardown() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    },
  };
});
