/**
 * Starts the embedded ERP for the contract tests with `startErp` (apps/erp) on a random loopback
 * port with its own PGlite under a temporary DATA_DIR (or, when TEST_DATABASE_URL is set,
 * DATABASE_URL pointing at a scratch PostgreSQL database), reached over real HTTP through the same
 * Odoo JSON-RPC adapter the platform uses in production, with the API key `startErp` provisions
 * for the platform (DATA_DIR/erp-platform-api-key, login admin).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDb } from '@platform/db';
import type { Erp } from '@platform/erp';
import { createOdooErp } from '@platform/erp/odoo/odoo-erp.adapter.js';

import { loadErpConfig } from '../../src/erp.config.js';
import { startErp } from '../../src/erp.server.js';

export interface EmbeddedContractErp {
  erp: Erp;
  erpWithWrongSecret: Erp;
  teardown(): Promise<void>;
}

export async function startEmbeddedErp(db = 'contract'): Promise<EmbeddedContractErp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'erp-contract-'));
  const scratch = process.env.TEST_DATABASE_URL ? await createTestDb() : undefined;
  // The ERP's own config loader fills every default, as `npm run start:erp` does.
  const server = await startErp(
    loadErpConfig({
      ERP_PORT: '0',
      ERP_HOST: '127.0.0.1',
      ERP_DB: db,
      ERP_ADMIN_PASSWORD: `pw-${Math.random().toString(36).slice(2)}`,
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url,
      LOG_LEVEL: 'silent',
    }),
  ).catch(async (e: unknown) => {
    await scratch?.drop();
    throw e;
  });
  const secret = (await readFile(join(dataDir, 'erp-platform-api-key'), 'utf8')).trim();
  const creds = { url: server.url, db, login: 'admin', secret, timeoutMs: 20_000 };
  return {
    erp: createOdooErp(creds),
    erpWithWrongSecret: createOdooErp({ ...creds, secret: '0'.repeat(40) }),
    async teardown() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    },
  };
}
