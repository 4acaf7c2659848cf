/**
 * Payment registration after lost ERP replies: the worker's accounting job talks to the ERP (JSON-RPC
 * over HTTP) through a proxy that lets the ERP register the payment and then drops the reply. The
 * retried job finds the payment by its provider reference: one ERP payment per provider payment; a
 * pushed invoice whose ERP write reply was lost is not pushed twice.
 * Also: the accounting Webhook Key rotates with an overlap.
 */
import type { AddressInfo } from 'node:net';

import { TOPIC_ACCOUNTING_WEBHOOK } from '@platform/contracts';
import { createOdooErp, type Erp } from '@platform/erp';
import { odooCall, type ReplyDroppingProxy, startReplyDroppingProxy } from '@platform/erp-embedded/testing';
import { accountingConnectionSchema } from '@platform/integrations';
import type { OutboxRow } from '@platform/outbox';
import { signXeroPayload } from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type AccountingHarness,
  CLIENT_ID,
  CLIENT_SECRET,
  ERP_DB,
  postInvoice,
  pushRow,
  REDIRECT_URI,
  startAccountingHarness,
  WEBHOOK_KEY,
} from '../../../test/support/accounting-harness.js';
import { accountingHandlers } from './accounting.jobs.js';

let h: AccountingHarness;
let proxy: ReplyDroppingProxy;
let viaProxy: Erp;

beforeAll(async () => {
  h = await startAccountingHarness();
  await h.configure();
  expect((await h.connect()).status).toBe(200);
  const { key } = await h.embedded.createApiKey(ERP_DB, 'admin', 'lost-reply test');
  proxy = await startReplyDroppingProxy(`http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`);
  viaProxy = createOdooErp({ url: proxy.url, db: ERP_DB, login: 'admin', secret: key, timeoutMs: 20_000 });
}, 180_000);
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

const pendingJobs = async () =>
  (
    await h.t.db.query<OutboxRow>(`SELECT * FROM outbox WHERE topic = $1 AND status = 'pending' ORDER BY id`, [
      TOPIC_ACCOUNTING_WEBHOOK,
    ])
  ).rows;
const paymentsOf = (invoiceId: number) =>
  h.erp.searchRead('account.payment', [['reconciled_invoice_ids', 'in', [invoiceId]]], {
    fields: ['amount', 'ref', 'state'],
  });

describe('a provider payment registered in the ERP while the reply was lost', { timeout: 60_000 }, () => {
  it.each([
    ['the Register Payment wizard ran', odooCall('account.payment.register', 'action_create_payments')],
    ['the wizard was created', odooCall('account.payment.register', 'create')],
  ])('%s: the retried job leaves one payment and the invoice paid', async (_what, match) => {
    const invoiceId = await postInvoice(h, `Lost Reply ${Math.random().toString(36).slice(2, 7)}`);
    const { providerInvoiceId } = (await h.handlers['accounting.push_invoice']!(pushRow(h, invoiceId))) as {
      providerInvoiceId: string;
    };
    h.local.recordPayment({ invoiceId: providerInvoiceId, amount: 460 });
    await h.local.flushWebhooks();
    const [row] = await pendingJobs();
    const handlers = accountingHandlers(h.services, () => viaProxy);
    proxy.dropNext(match);
    await expect(handlers[TOPIC_ACCOUNTING_WEBHOOK]!(row!)).rejects.toMatchObject({ code: 'ERP_UNAVAILABLE' });
    expect(proxy.dropped.at(-1)?.upstreamStatus).toBe(200);
    const retried = await handlers[TOPIC_ACCOUNTING_WEBHOOK]!(row!);
    expect(retried).toMatchObject({ registered: [expect.any(String)] });
    await h.t.db.query(`UPDATE outbox SET status = 'done' WHERE id = $1`, [row!.id]);
    const payments = await paymentsOf(invoiceId);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount: 460, state: 'posted' });
    expect((await h.erp.read('account.move', [invoiceId], ['payment_state']))[0]).toMatchObject({
      payment_state: 'paid',
    });
  });
});

describe('a pushed invoice whose ERP reply was lost', { timeout: 60_000 }, () => {
  it('the retried push job leaves one invoice at the provider and its id on the ERP invoice', async () => {
    const invoiceId = await postInvoice(h, `Push Lost ${Math.random().toString(36).slice(2, 7)}`);
    const handlers = accountingHandlers(h.services, () => viaProxy);
    const before = h.local.invoices().length;
    proxy.dropNext(odooCall('account.move', 'write'));
    await expect(handlers['accounting.push_invoice']!(pushRow(h, invoiceId))).rejects.toMatchObject({
      code: 'ERP_UNAVAILABLE',
    });
    const r = (await handlers['accounting.push_invoice']!(pushRow(h, invoiceId))) as { providerInvoiceId: string };
    expect(h.local.invoices()).toHaveLength(before + 1);
    expect((await h.erp.read('account.move', [invoiceId], ['x_acct_invoice_id']))[0]).toMatchObject({
      x_acct_invoice_id: r.providerInvoiceId,
    });
  });
});

describe('accounting Webhook Key rotation', () => {
  const post = (body: string, key: string) =>
    h.app.inject({
      method: 'POST',
      url: '/acct/webhook',
      headers: { 'content-type': 'application/json', 'x-xero-signature': signXeroPayload(body, key) },
      payload: body,
    });
  const probe = JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: 'ROTATION' });
  const rotate = (webhook_key: string, rotation_overlap_hours: number) =>
    h.settings.setAccountingConnection(
      h.tenantId,
      accountingConnectionSchema.parse({
        name: 'Xero 1',
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uri: REDIRECT_URI,
        webhook_key,
        rotation_overlap_hours,
      }),
    );

  it('accepts the previous key until its overlap ends, then only the new one', async () => {
    const NEW = 'rotated-webhook-key-0000000000000001';
    const shown = await rotate(NEW, 24);
    expect(shown['previous_webhook_key_expires_at']).toBeInstanceOf(Date);
    expect((await post(probe, WEBHOOK_KEY)).statusCode).toBe(200);
    expect((await post(probe, NEW)).statusCode).toBe(200);
    expect((await post(probe, 'some-other-key-000000000000000000')).statusCode).toBe(401);
    await h.t.db.query(
      `UPDATE accounting_connections SET previous_webhook_key_expires_at = now() - interval '1 second' WHERE tenant_id = $1`,
      [h.tenantId],
    );
    expect((await post(probe, WEBHOOK_KEY)).statusCode).toBe(401);
    expect((await post(probe, NEW)).statusCode).toBe(200);
    // Without an overlap the replaced key stops at once.
    await rotate('rotated-webhook-key-0000000000000002', 0);
    expect((await post(probe, NEW)).statusCode).toBe(401);
    expect((await h.settings.showAccountingConnection(h.tenantId))['previous_webhook_key_expires_at']).toBeNull();
  });
});
