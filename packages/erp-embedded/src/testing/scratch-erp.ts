/**
 * Test support for the embedded ERP's own tests: a scratch database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL) holding one ERP database, and `x()` calling execute_kw as its admin.
 */
import { createTestDb, type TestDb } from '@platform/db';
import { expect } from 'vitest';

import { EmbeddedErp } from '../embedded-erp.js';
import { qi } from '../schema.js';

export interface ErpTest {
  t: TestDb;
  erp: EmbeddedErp;
  db: string;
  /** execute_kw as admin (uid 2, password `pw`). */
  x: <T = any>(model: string, method: string, args?: unknown[], kw?: Record<string, unknown>) => Promise<T>;
  /** execute_kw as another user. */
  as: (uid: number, password: string) => ErpTest['x'];
  /** The id of an external id. */
  ref: (xmlid: string) => Promise<number>;
  /** Sets write_date of records back to 2000, so a test can see that a call moved it. */
  age: (model: string, ids: number[]) => Promise<void>;
  writeDate: (model: string, id: number) => Promise<string>;
  close: () => Promise<void>;
}

export async function startErpTest(db = 'test'): Promise<ErpTest> {
  const t = await createTestDb();
  const erp = new EmbeddedErp(t.db);
  await erp.createDatabase(db, { adminPassword: 'pw' });
  const as =
    (uid: number, password: string) =>
    <T>(model: string, method: string, args: unknown[] = [], kw: Record<string, unknown> = {}) =>
      erp.executeKw(db, uid, password, model, method, args, kw) as Promise<T>;
  const x = as(2, 'pw');
  const table = (model: string) => `${qi(`erp_${db}`)}.${qi(model.replace(/\./g, '_'))}`;
  return {
    t,
    erp,
    db,
    x,
    as,
    async ref(xmlid) {
      const [module, name] = xmlid.split('.');
      const r = await t.db.query<{ res_id: number }>(
        `SELECT res_id FROM ${table('ir.model.data')} WHERE module = $1 AND name = $2`,
        [module, name],
      );
      if (!r.rows[0]) throw new Error(`no ${xmlid}`);
      return r.rows[0].res_id;
    },
    async age(model, ids) {
      await t.db.query(`UPDATE ${table(model)} SET write_date = '2000-01-01 00:00:00' WHERE id = ANY($1::integer[])`, [
        ids,
      ]);
    },
    async writeDate(model, id) {
      const [r] = await x<{ write_date: string }[]>(model, 'read', [[id], ['write_date']]);
      return r!.write_date;
    },
    close: () => t.drop(),
  };
}

/** The Odoo exception a call must fail with (`odooName`), and a piece of its message. */
export const odoo = (name: 'UserError' | 'AccessError' | 'MissingError' | 'ValidationError', message?: string) => ({
  odooName: `odoo.exceptions.${name}`,
  ...(message ? { message: expect.stringContaining(message) } : {}),
});
