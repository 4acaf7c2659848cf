/**
 * ERP events to team chat through the worker: a message for exactly the events whose flag is on,
 * one thread per record, once per event even when the event is delivered again or its reply was
 * lost, a space that answers 429 is waited for rather than failed, and a URL that can never work is
 * dead-lettered at once.
 */
import { randomBytes } from 'node:crypto';

import {
  type ErpEventPayload,
  type ErpEventTopic,
  TOPIC_FSM_STAGE_CHANGED,
  TOPIC_INVOICE_POSTED,
  TOPIC_PO_CONFIRMED,
  TOPIC_SALE_CONFIRMED,
} from '@platform/contracts';
import type { Db } from '@platform/db';
import { waitFor } from '@platform/erp-embedded/testing';
import { type ReplyDroppingProxy, startReplyDroppingProxy } from '@platform/erp-embedded/testing';
import { chatConfigSchema, IntegrationSettingsService } from '@platform/integrations';
import { enqueue } from '@platform/outbox';
import { type RunningLocalChat, startLocalChat } from '@platform/providers/local';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPlatformDb } from '../../../test/support/payloads.js';
import { loadWorkerConfig } from '../../config.js';
import { type RunningWorker, startWorker } from '../../worker.js';

const KEYRING = `k1:${randomBytes(32).toString('base64')}`;
let db: Db;
let tenantId: string;
let drop: () => Promise<void>;
let chat: RunningLocalChat;
let worker: RunningWorker;
let proxy: ReplyDroppingProxy;
let settings: IntegrationSettingsService;

const event = (
  model: string,
  recordId: number,
  name: string,
  extra: Partial<ErpEventPayload> = {},
): ErpEventPayload => ({
  erpDb: 'platform',
  model,
  recordId,
  field: 'state',
  old: 'draft',
  new: 'x',
  oldLabel: null,
  newLabel: null,
  writeDate: `2026-11-22 10:00:${String(recordId).padStart(2, '0')}`,
  record: { name, company_id: [1, 'Brightview Blinds'], partner_id: [5, 'Jane Roe'], amount_total: 980 },
  ...extra,
});
/** Job FSO00001 moving from one stage to another, each given as [id, label]. */
const jobMoved = (from: [string, string], to: [string, string], extra: Partial<ErpEventPayload> = {}) =>
  event('fsm.order', 4, 'FSO00001', {
    field: 'stage_id',
    old: from[0],
    new: to[0],
    oldLabel: from[1],
    newLabel: to[1],
    ...extra,
  });
const emit = (topic: ErpEventTopic, e: ErpEventPayload) =>
  enqueue(db, { tenantId, topic, aggregateId: `${e.model}:${e.recordId}`, payload: { ...e } });

beforeAll(async () => {
  const p = await createPlatformDb();
  ({ db, tenantId } = p);
  drop = () => p.t.drop();
  chat = await startLocalChat();
  // The same chat space reached through a proxy that can lose a reply after the post was made.
  proxy = await startReplyDroppingProxy(chat.url);
  settings = new IntegrationSettingsService(db, createSecretBox(parseKeyring(KEYRING)), () => undefined, [
    chat.url,
    proxy.url,
  ]);
  await settings.setChatConfig(
    tenantId,
    chatConfigSchema.parse({
      webhook_url: chat.webhookUrl('OPS'),
      enable_fsm: true,
      enable_sales: true,
      enable_invoice: false,
      enable_po: false,
    }),
  );
  worker = await startWorker(
    loadWorkerConfig({
      SECRETS_KEYRING: KEYRING,
      CHAT_ALLOWED_ORIGINS: `${chat.url},${proxy.url}`,
      LOG_LEVEL: 'silent',
      OUTBOX_POLL_MS: '50',
      OUTBOX_BASE_DELAY_MS: '50',
      CHANGE_FEED_POLL_MS: '0',
      ERP_API_KEY: 'unused-in-this-test',
    }),
    { db },
  );
}, 180_000);
afterAll(async () => {
  await worker?.close();
  await proxy?.close();
  await chat?.close();
  await drop?.();
});

const pendingRows = async () =>
  (
    await db.query(
      `SELECT id, topic, status, attempts, last_error FROM outbox WHERE status <> 'done' AND topic NOT LIKE 'accounting.%'`,
    )
  ).rows;
const done = async () =>
  (
    await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox WHERE status <> 'done' AND topic NOT LIKE 'accounting.%'`,
    )
  ).rows[0]!.n === 0;

describe('team-chat notifications', () => {
  it('post for exactly the enabled events, threaded per record, and never twice for one event', async () => {
    await emit(TOPIC_SALE_CONFIRMED, event('sale.order', 1, 'S00001'));
    await emit(TOPIC_INVOICE_POSTED, event('account.move', 2, 'INV/2026/00001'));
    await emit(TOPIC_PO_CONFIRMED, event('purchase.order', 3, 'P00001'));
    await emit(TOPIC_FSM_STAGE_CHANGED, jobMoved(['1', 'New'], ['2', 'Scheduled']));
    await emit(
      TOPIC_FSM_STAGE_CHANGED,
      jobMoved(['2', 'Scheduled'], ['3', 'In Progress'], { writeDate: '2026-11-22 11:00:00' }),
    );
    worker.wake();
    await waitFor(async () => ((await done()) ? true : undefined), 'all jobs done', 20_000).catch(async (e) => {
      throw new Error(`${e.message}: ${JSON.stringify(await pendingRows())}`);
    });
    expect(chat.messages.map((m) => m.text)).toEqual(
      expect.arrayContaining([
        '*Sales order S00001 confirmed* for Jane Roe (980.00)',
        '*Job FSO00001* moved from *New* to *Scheduled*',
        '*Job FSO00001* moved from *Scheduled* to *In Progress*',
      ]),
    );
    expect(chat.messages).toHaveLength(3);
    const fsm = chat.messages.filter((m) => m.threadKey === 'fsm.order-4');
    expect(fsm).toHaveLength(2);
    expect(new Set(fsm.map((m) => m.threadName)).size).toBe(1);
    // The same event delivered again (a replayed outbox row) posts nothing new: requestId de-dup.
    await db.query(
      `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = now() WHERE topic = 'chat.notify'`,
    );
    worker.wake();
    await waitFor(async () => ((await done()) ? true : undefined), 'replay done', 60_000);
    expect(chat.messages).toHaveLength(3);
  });

  it('waits out a 429 from the space and then posts', async () => {
    chat.failNext(1);
    await emit(TOPIC_SALE_CONFIRMED, event('sale.order', 9, 'S00009'));
    worker.wake();
    await waitFor(
      async () => (chat.messages.some((m) => m.text?.includes('S00009')) ? true : undefined),
      'message after 429',
      60_000,
    );
    await waitFor(async () => ((await done()) ? true : undefined), 'job done', 20_000);
    // Deferred once, delivered on the next claim: the wait was not counted as a failed attempt.
    const row = (
      await db.query<{ attempts: number; status: string }>(
        `SELECT attempts, status FROM outbox WHERE topic = 'chat.notify' ORDER BY id DESC LIMIT 1`,
      )
    ).rows[0]!;
    expect(row).toEqual({ attempts: 1, status: 'done' });
    expect(chat.messages.filter((m) => m.text?.includes('S00009'))).toHaveLength(1);
  });

  it('posts once when the space made the post but its reply was lost (the retry reuses the requestId)', async () => {
    await settings.setChatConfig(
      tenantId,
      chatConfigSchema.parse({
        company_id: 3,
        webhook_url: chat.webhookUrl('LOST').replace(chat.url, proxy.url),
        enable_sales: true,
      }),
    );
    proxy.dropNext();
    await emit(
      TOPIC_SALE_CONFIRMED,
      event('sale.order', 31, 'S00031', {
        record: { name: 'S00031', company_id: [3, 'Third Co'], partner_id: [5, 'Jane Roe'], amount_total: 10 },
      }),
    );
    worker.wake();
    await waitFor(async () => ((await done()) ? true : undefined), 'job done after a lost reply', 30_000);
    expect(proxy.dropped).toHaveLength(1);
    expect(proxy.dropped[0]!.upstreamStatus).toBe(200);
    const row = (
      await db.query<{ attempts: number }>(
        `SELECT attempts FROM outbox WHERE topic = 'chat.notify' ORDER BY id DESC LIMIT 1`,
      )
    ).rows[0]!;
    expect(row.attempts).toBe(2);
    expect(chat.messages.filter((m) => m.text?.includes('S00031'))).toHaveLength(1);
  });

  it('dead-letters at once a webhook URL the worker will never call (outside CHAT_ALLOWED_ORIGINS)', async () => {
    // Saved before the origins were narrowed (settings of another host allowed it).
    const elsewhere = new IntegrationSettingsService(db, createSecretBox(parseKeyring(KEYRING)), () => undefined, [
      'https://chat.example.net',
    ]);
    await elsewhere.setChatConfig(
      tenantId,
      chatConfigSchema.parse({
        company_id: 2,
        webhook_url: 'https://chat.example.net/v1/spaces/X/messages?key=K&token=T',
        enable_sales: true,
      }),
    );
    const id = await emit(
      TOPIC_SALE_CONFIRMED,
      event('sale.order', 21, 'S00021', {
        record: { name: 'S00021', company_id: [2, 'Other Co'], partner_id: [5, 'Jane Roe'], amount_total: 10 },
      }),
    );
    worker.wake();
    const row = await waitFor(
      async () => {
        const r = (
          await db.query<{ status: string; attempts: number; last_error: string }>(
            `SELECT status, attempts, last_error FROM outbox WHERE topic = 'chat.notify' AND status = 'dead'`,
          )
        ).rows[0];
        return r ?? undefined;
      },
      'dead letter',
      20_000,
    );
    expect(id).not.toBeNull();
    expect(row).toMatchObject({ status: 'dead', attempts: 1 });
    expect(row.last_error).toMatch(/allowed origin/);
    expect(row.last_error).not.toMatch(/key=K|token=T/);
    await db.query(`DELETE FROM outbox WHERE status = 'dead'`);
  });
});
