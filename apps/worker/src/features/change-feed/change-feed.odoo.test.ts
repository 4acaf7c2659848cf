/**
 * The change feed against Odoo 15 itself, on recorded wire fixtures (packages/erp/fixtures/odoo15/
 * change-feed-*.json) replayed over HTTP: the same baseline, one event for the confirmation with old
 * and new values, nothing on the overlapping re-read, across a restart of the service.
 */
import type { Db } from '@platform/db';
import { createOdooErp, type Erp } from '@platform/erp';
import {
  loadOdooFixtures,
  type OdooFixtureServer,
  startOdooFixtureServer,
} from '@platform/erp/contract/odoo-fixture.server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPlatformDb } from '../../../test/support/payloads.js';
import { ChangeFeedService } from './change-feed.service.js';
import { WATCHED_MODELS } from './watched-models.js';

let db: Db;
let drop: () => Promise<void>;
let odoo: OdooFixtureServer;
let erp: Erp;
const SALES = WATCHED_MODELS.filter((w) => w.model === 'sale.order');
const feed = () => new ChangeFeedService(db, { defaultErpDb: 'odoo15', erpFor: () => erp, models: SALES });

beforeAll(async () => {
  const p = await createPlatformDb();
  db = p.db;
  drop = () => p.t.drop();
  odoo = await startOdooFixtureServer((await loadOdooFixtures()).values());
  erp = createOdooErp({
    url: odoo.url,
    db: 'odoo15',
    login: 'api-bot@example.com',
    secret: '3f1c0e5b8a9d47e2b6c1f0a4d8e7b2c95a1f3e6d',
  });
}, 120_000);
afterAll(async () => {
  await odoo?.close();
  await drop?.();
});

describe('the change feed against recorded Odoo 15 answers', () => {
  it('baseline, then exactly one sale-confirmed event, then nothing on the overlapping re-read after a restart', async () => {
    expect(await feed().pollAll()).toBe(0);
    expect(await feed().pollAll()).toBe(1);
    expect(await feed().pollAll()).toBe(0);
    expect(odoo.unmatched).toEqual([]);
    const rows = (await db.query<{ topic: string; payload: Record<string, any> }>(`SELECT topic, payload FROM outbox`))
      .rows;
    expect(rows).toEqual([
      {
        topic: 'erp.sale_confirmed',
        payload: expect.objectContaining({
          erpDb: 'odoo15',
          model: 'sale.order',
          recordId: 41,
          old: 'draft',
          new: 'sale',
          writeDate: '2026-11-20 09:05:00',
          record: expect.objectContaining({ name: 'S00041', partner_id: [7, 'Harper Residence'] }),
        }),
      },
    ]);
  });
});
