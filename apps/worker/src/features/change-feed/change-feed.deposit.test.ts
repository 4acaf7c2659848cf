/**
 * A paid deposit as the change feed sees it: the control plane's deposit job (recordDepositInErp:
 * confirm the order, invoice the down payment, post it, pay it) gives exactly one "Sales
 * Confirmation" (erp.sale_confirmed) for the order and one "Invoice Posted" (erp.invoice_posted) for
 * the down-payment invoice, which the worker's fan-out sends on to the team chat and the accounting
 * sync; running the job again after it finished adds none.
 */
import { recordDepositInErp } from '@platform/app-control/features/payments/deposit-erp.js';
import { ERP_EVENT_TOPICS } from '@platform/contracts';
import { waitFor } from '@platform/erp-embedded/testing';
import { afterAll, describe, expect, it } from 'vitest';

import { useErpOnPlatformDb } from '../../../test/support/erp-on-platform-db.js';
import { loadWorkerConfig } from '../../config.js';
import { type RunningWorker, startWorker } from '../../worker.js';

const fx = useErpOnPlatformDb();
let worker: RunningWorker | undefined;
afterAll(async () => worker?.close());

const events = async () =>
  (
    await fx.db.query<{ topic: string; payload: Record<string, any> }>(
      `SELECT topic, payload FROM outbox WHERE topic = ANY($1::text[]) ORDER BY id`,
      [[...ERP_EVENT_TOPICS]],
    )
  ).rows;

describe('the change feed on a paid deposit', () => {
  it('hears one sales confirmation and one posted invoice', async () => {
    const partner = await fx.erp.create('res.partner', { name: 'Priya Raman' });
    const product = await fx.erp.create('product.product', { name: 'Wood blind', invoice_policy: 'order' });
    const order = await fx.erp.create('sale.order', {
      partner_id: partner,
      order_line: [[0, 0, { product_id: product, product_uom_qty: 3, price_unit: 180 }]],
    });
    worker = await startWorker(
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
    await waitFor(
      async () =>
        (await fx.db.query(`SELECT 1 FROM erp_change_cursors WHERE baseline_done`)).rows.length >= 2 ? true : undefined,
      'baseline',
      60_000,
    );
    const deposit = {
      saleOrderId: order,
      quoteId: '00000000-0000-4000-8000-0000000000d2',
      amountMinor: 27_000,
      currency: 'USD',
      method: 'card' as const,
    };
    const made = await recordDepositInErp(fx.erp, deposit);
    await waitFor(async () => ((await events()).length >= 2 ? true : undefined), 'two events', 60_000);
    // The job again (a retry after it finished) changes nothing the feed could hear.
    expect(await recordDepositInErp(fx.erp, deposit)).toEqual(made);
    await new Promise((r) => setTimeout(r, 1000)); // more passes of the feed: still two
    expect((await events()).map((e) => [e.topic, e.payload.recordId, e.payload.new])).toEqual([
      ['erp.sale_confirmed', order, 'sale'],
      ['erp.invoice_posted', made.invoiceId, 'posted'],
    ]);
  });
});
