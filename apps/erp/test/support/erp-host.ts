/** Test support: the ERP host (composeErpApp) on a fresh test database holding one ERP database. */
import { createTestDb, type TestDb } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';

import { composeErpApp } from '../../src/deps.js';

export interface ErpHost {
  erp: EmbeddedErp;
  app: FastifyInstance;
}

/**
 * Creates the ERP database `dbName` (admin password `pw`) and composes the host before the tests of
 * the file (or describe block) that calls it, and drops it all after; the fields are set once
 * `beforeAll` has run.
 */
export function useErpHost(dbName: string): ErpHost {
  const host = {} as ErpHost;
  let t: TestDb | undefined;
  beforeAll(async () => {
    t = await createTestDb();
    host.erp = new EmbeddedErp(t.db);
    await host.erp.createDatabase(dbName, { adminPassword: 'pw' });
    host.app = composeErpApp({ erp: host.erp });
  }, 120_000);
  afterAll(async () => {
    await host.app?.close();
    await t?.drop();
  });
  return host;
}
