/** Test support: the embedded ERP served on a migrated platform database, for the tests of one file. */
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll } from 'vitest';

import { createPlatformDb } from './payloads.js';

export interface ErpOnPlatformDb {
  db: Db;
  server: TestErp;
  /** The admin's Odoo adapter (`server.erp`). */
  erp: Erp;
}

/**
 * Starts the database and the ERP before the file's tests and stops them after; the fields are set
 * once `beforeAll` has run. Hooks a test file registers later run before this teardown (vitest's
 * stacked hooks), so a worker closed there stops before the ERP does.
 */
export function useErpOnPlatformDb(): ErpOnPlatformDb {
  const fx = {} as ErpOnPlatformDb;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const p = await createPlatformDb();
    fx.db = p.db;
    drop = () => p.t.drop();
    fx.server = await startTestErp({ db: p.db });
    fx.erp = fx.server.erp;
  }, 180_000);
  afterAll(async () => {
    await fx.server?.close();
    await drop?.();
  });
  return fx;
}
