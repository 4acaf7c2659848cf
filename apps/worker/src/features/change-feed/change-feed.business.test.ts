/**
 * The must-show for the change feed, on the embedded ERP's business models: confirm an order,
 * post an invoice, move an FSM order through two stages, confirm a PO: exactly these five events in
 * the outbox, with a worker restart between them.
 */
import { ERP_EVENT_TOPICS } from '@platform/contracts';
import { waitFor } from '@platform/erp-embedded/testing';
import { afterAll, describe, expect, it } from 'vitest';

import { useErpOnPlatformDb } from '../../../test/support/erp-on-platform-db.js';
import { loadWorkerConfig } from '../../config.js';
import { type RunningWorker, startWorker } from '../../worker.js';

const fx = useErpOnPlatformDb();
let worker: RunningWorker | undefined;

const events = async () =>
  (
    await fx.db.query<{ topic: string; payload: Record<string, any> }>(
      `SELECT topic, payload FROM outbox WHERE topic = ANY($1::text[]) ORDER BY id`,
      [[...ERP_EVENT_TOPICS]],
    )
  ).rows;
const startFeed = () =>
  startWorker(
    loadWorkerConfig({
      ERP_URL: fx.server.url,
      ERP_API_KEY: fx.server.apiKey,
      ERP_DB: fx.server.dbName,
      LOG_LEVEL: 'silent',
      CHANGE_FEED_POLL_MS: '100',
      OUTBOX_POLL_MS: '100',
      SECRETS_KEYRING: `k:${Buffer.alloc(32, 7).toString('base64')}`,
    }),
    { db: fx.db },
  );
const untilEvents = (n: number) =>
  waitFor(async () => ((await events()).length >= n ? true : undefined), `${n} events`, 60_000);
const baselineDone = () =>
  waitFor(
    async () =>
      (await fx.db.query(`SELECT 1 FROM erp_change_cursors WHERE baseline_done`)).rows.length >= 4 ? true : undefined,
    'baseline',
    60_000,
  );
const stage = async (name: string) => (await fx.erp.search('fsm.stage', [['name', '=', name]]))[0]!;

afterAll(async () => {
  await worker?.close();
});

describe('the change feed on business records', () => {
  it('emits exactly five events for a sale, an invoice, two FSM stage moves and a PO, across worker restarts', async () => {
    const partner = await fx.erp.create('res.partner', { name: 'Harper Residence' });
    const product =
      (await fx.erp.search('product.product', [['sale_ok', '=', true]], { limit: 1 }))[0] ??
      (await fx.erp.create('product.product', { name: 'Roller shade' }));
    const order = await fx.erp.create('sale.order', {
      partner_id: partner,
      order_line: [[0, 0, { product_id: product, product_uom_qty: 3, price_unit: 180 }]],
    });
    const invoice = await fx.erp.create('account.move', {
      move_type: 'out_invoice',
      partner_id: partner,
      invoice_line_ids: [[0, 0, { product_id: product, name: 'Roller shades', quantity: 3, price_unit: 180 }]],
    });
    const location = await fx.erp.create('fsm.location', { name: 'Harper Residence', owner_id: partner });
    const job = await fx.erp.create('fsm.order', { location_id: location });
    const po = await fx.erp.create('purchase.order', {
      partner_id: partner,
      order_line: [[0, 0, { product_id: product, product_qty: 3, price_unit: 90 }]],
    });

    worker = await startFeed();
    await baselineDone();
    expect(await events()).toHaveLength(0); // records that existed before the first pass are not events

    await fx.erp.call('sale.order', 'action_confirm', [[order]]);
    await untilEvents(1);
    await worker.close(); // restart between transitions
    await fx.erp.call('account.move', 'action_post', [[invoice]]);
    worker = await startFeed();
    await untilEvents(2);
    await fx.erp.write('fsm.order', [job], { stage_id: await stage('Scheduled') });
    await untilEvents(3);
    await fx.erp.write('fsm.order', [job], { stage_id: await stage('In Progress') });
    await untilEvents(4);
    await worker.close();
    await fx.erp.call('purchase.order', 'button_confirm', [[po]]);
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
