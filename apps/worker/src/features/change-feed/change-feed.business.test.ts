/**
 * The must-show for the change feed, on the embedded ERP's business models: confirm an order,
 * post an invoice, move an FSM order through two stages, confirm a PO: exactly these five events in
 * the outbox, with a worker restart between them.
 */
import { ERP_EVENT_TOPICS } from '@platform/contracts';
import type { Db } from '@platform/db';
import type { Erp } from '@platform/erp';
import { startTestErp, type TestErp, waitFor } from '@platform/erp-embedded/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPlatformDb } from '../../../test/support/payloads.js';
import { loadWorkerConfig } from '../../config.js';
import { type RunningWorker, startWorker } from '../../worker.js';

let db: Db;
let drop: () => Promise<void>;
let server: TestErp;
let erp: Erp;
let worker: RunningWorker | undefined;

const events = async () =>
  (
    await db.query<{ topic: string; payload: Record<string, any> }>(
      `SELECT topic, payload FROM outbox WHERE topic = ANY($1::text[]) ORDER BY id`,
      [[...ERP_EVENT_TOPICS]],
    )
  ).rows;
const startFeed = () =>
  startWorker(
    loadWorkerConfig({
      ERP_URL: server.url,
      ERP_API_KEY: server.apiKey,
      ERP_DB: server.dbName,
      LOG_LEVEL: 'silent',
      CHANGE_FEED_POLL_MS: '100',
      OUTBOX_POLL_MS: '100',
      SECRETS_KEYRING: `k:${Buffer.alloc(32, 7).toString('base64')}`,
    }),
    { db },
  );
const untilEvents = (n: number) =>
  waitFor(async () => ((await events()).length >= n ? true : undefined), `${n} events`, 60_000);
const baselineDone = () =>
  waitFor(
    async () =>
      (await db.query(`SELECT 1 FROM erp_change_cursors WHERE baseline_done`)).rows.length >= 4 ? true : undefined,
    'baseline',
    60_000,
  );
const stage = async (name: string) => (await erp.search('fsm.stage', [['name', '=', name]]))[0]!;

beforeAll(async () => {
  const p = await createPlatformDb();
  db = p.db;
  drop = () => p.t.drop();
  server = await startTestErp({ db });
  erp = server.erp;
}, 180_000);
afterAll(async () => {
  await worker?.close();
  await server?.close();
  await drop?.();
});

describe('the change feed on business records', () => {
  it('emits exactly five events for a sale, an invoice, two FSM stage moves and a PO, across worker restarts', async () => {
    const partner = await erp.create('res.partner', { name: 'Harper Residence' });
    const product =
      (await erp.search('product.product', [['sale_ok', '=', true]], { limit: 1 }))[0] ??
      (await erp.create('product.product', { name: 'Roller shade' }));
    const order = await erp.create('sale.order', {
      partner_id: partner,
      order_line: [[0, 0, { product_id: product, product_uom_qty: 3, price_unit: 180 }]],
    });
    const invoice = await erp.create('account.move', {
      move_type: 'out_invoice',
      partner_id: partner,
      invoice_line_ids: [[0, 0, { product_id: product, name: 'Roller shades', quantity: 3, price_unit: 180 }]],
    });
    const location = await erp.create('fsm.location', { name: 'Harper Residence', owner_id: partner });
    const job = await erp.create('fsm.order', { location_id: location });
    const po = await erp.create('purchase.order', {
      partner_id: partner,
      order_line: [[0, 0, { product_id: product, product_qty: 3, price_unit: 90 }]],
    });

    worker = await startFeed();
    await baselineDone();
    expect(await events()).toHaveLength(0); // records that existed before the first pass are not events

    await erp.call('sale.order', 'action_confirm', [[order]]);
    await untilEvents(1);
    await worker.close(); // restart between transitions
    await erp.call('account.move', 'action_post', [[invoice]]);
    worker = await startFeed();
    await untilEvents(2);
    await erp.write('fsm.order', [job], { stage_id: await stage('Scheduled') });
    await untilEvents(3);
    await erp.write('fsm.order', [job], { stage_id: await stage('In Progress') });
    await untilEvents(4);
    await worker.close();
    await erp.call('purchase.order', 'button_confirm', [[po]]);
    worker = await startFeed();
    await untilEvents(5);
    await new Promise((r) => setTimeout(r, 1000)); // more passes: still five
    const all = await events();
    expect(all.map((e) => [e.topic, e.payload.model, e.payload.recordId, e.payload.old, e.payload.new])).toEqual([
      ['erp.sale_confirmed', 'sale.order', order, 'draft', 'sale'],
      ['erp.invoice_posted', 'account.move', invoice, 'draft', 'posted'],
      ['erp.fsm_stage_changed', 'fsm.order', job, expect.any(String), String(await stage('Scheduled'))],
      ['erp.fsm_stage_changed', 'fsm.order', job, String(await stage('Scheduled')), String(await stage('In Progress'))],
      ['erp.po_confirmed', 'purchase.order', po, 'draft', 'purchase'],
    ]);
    expect(all.slice(2, 4).map((e) => `${e.payload.oldLabel} -> ${e.payload.newLabel}`)).toEqual([
      'New -> Scheduled',
      'Scheduled -> In Progress',
    ]);
  });
});
