/**
 * Outbound webhooks through the real outbox relay on the test database, to a loopback receiver:
 * signed per Standard Webhooks (checked with the reference library's Webhook.verify), delivered in
 * order per endpoint across a receiver outage with nothing lost or doubled, nothing sent to a
 * disabled endpoint, 410 Gone disabling the endpoint, the last attempt failing the delivery and
 * letting the next one go, and the secret kept only sealed. The relay is driven tick by tick with
 * backoff shrunk to nothing, so a long outage is a few ticks instead of minutes.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import type { WebhookEventType } from '@platform/contracts';
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { OutboxRelay } from '@platform/outbox';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { findDelivery, listDeliveries } from './deliveries.repo.js';
import { findEndpoint, insertEndpoint, updateEndpoint } from './endpoints.repo.js';
import { type LoopbackReceiver, type ReceivedWebhook, startLoopbackReceiver } from './testing/loopback-receiver.js';
import { enqueueWebhookEvent, WebhookDispatch } from './webhook-dispatch.js';
import { newWebhookSecret, sealWebhookSecret } from './webhook-secret.js';

let t: TestDb;
let hooks: LoopbackReceiver;
const box = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
const silent = { info() {}, warn() {}, error() {} };
const MAX_ATTEMPTS = 6;

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  hooks = await startLoopbackReceiver();
});
afterAll(async () => {
  await hooks?.close();
  await t?.drop();
});
beforeEach(() => {
  hooks.received = [];
  hooks.answer = 200;
});

async function tenant(plan = 'professional'): Promise<string> {
  const r = await t.db.query<{ id: string }>(
    `INSERT INTO tenants (slug, name, plan, status) VALUES ($1, 'T', $2, 'active') RETURNING id`,
    [`wh-${randomUUID().slice(0, 8)}`, plan],
  );
  return r.rows[0]!.id;
}

async function endpoint(tenantId: string, events: WebhookEventType[] = ['lead.created']) {
  const id = randomUUID();
  const secret = newWebhookSecret();
  await t.db.transaction((tx) =>
    insertEndpoint(tx, {
      id,
      tenantId,
      url: hooks.url,
      description: null,
      events,
      secretEnc: sealWebhookSecret(box, tenantId, id, secret),
    }),
  );
  return { id, secret };
}

const dispatch = new WebhookDispatch({
  get db() {
    return t.db;
  },
  box,
  maxAttempts: MAX_ATTEMPTS,
  orderWaitMs: 1,
  timeoutMs: 2_000,
  allowLoopback: true,
});
const relay = () =>
  new OutboxRelay({
    db: t.db,
    workerId: 'webhooks-test',
    handlers: {
      'webhook.event': (row) => dispatch.fanOut(row.tenant_id, row.payload, row.id),
      'webhook.delivery': (row) => dispatch.deliver(row.payload, row.attempts),
    },
    logger: silent,
    // Backoff and the order wait shrink to a millisecond: each tick is "later".
    baseDelayMs: 1,
    maxDelayMs: 1,
    maxAttempts: MAX_ATTEMPTS,
    random: () => 0,
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function ticks(r: OutboxRelay, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await r.tick();
    await sleep(3);
  }
}

const event = (tenantId: string, key: string, type: WebhookEventType = 'lead.created') =>
  t.db.transaction((tx) =>
    enqueueWebhookEvent(tx, tenantId, {
      type,
      eventKey: `${type}:${key}`,
      occurredAt: '2026-11-27T10:00:00.000Z',
      data: { key },
    }),
  );

describe('a signed lead.created', () => {
  it('reaches the receiver signed so that the Standard Webhooks library verifies it, and is logged delivered', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    await event(tenantId, 'sub-1');
    await ticks(relay(), 3);
    expect(hooks.received).toHaveLength(1);
    const got = hooks.received[0]!;
    const verified = new Webhook(ep.secret).verify(got.body, got.headers);
    expect(verified).toEqual({ type: 'lead.created', timestamp: '2026-11-27T10:00:00.000Z', data: { key: 'sub-1' } });
    expect(got.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const log = await listDeliveries(t.db, tenantId, ep.id, { limit: 10, offset: 0 });
    expect(log.rows).toMatchObject([
      {
        event_type: 'lead.created',
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        webhook_id: got.headers['webhook-id'],
      },
    ]);
    expect(log.rows[0]!.settled_at).not.toBeNull();
  });

  it('is refused by the library under another secret (the signature is not decorative)', async () => {
    const tenantId = await tenant();
    await endpoint(tenantId);
    await event(tenantId, 'sub-2');
    await ticks(relay(), 3);
    const got = hooks.received[0]!;
    expect(() => new Webhook(newWebhookSecret()).verify(got.body, got.headers)).toThrow();
  });

  it('is queued once for a retried write, and fanned out once when the fan-out runs again', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    expect(await event(tenantId, 'same')).not.toBeNull();
    expect(await event(tenantId, 'same')).toBeNull();
    // An event no endpoint of the tenant takes is not queued at all.
    expect(await event(tenantId, 'nobody', 'job.completed')).toBeNull();
    const payload = {
      type: 'lead.created' as const,
      eventKey: 'lead.created:again',
      occurredAt: new Date().toISOString(),
      data: {},
    };
    // Called directly (row 0: nothing queued before it), as a relay would run it twice.
    expect(await dispatch.fanOut(tenantId, payload, 0)).toEqual({ deliveries: 1 });
    expect(await dispatch.fanOut(tenantId, payload, 0)).toEqual({ deliveries: 0 });
    await ticks(relay(), 3);
    expect(hooks.received).toHaveLength(2);
    expect((await listDeliveries(t.db, tenantId, ep.id, { limit: 10, offset: 0 })).total).toBe(2);
  });

  it('is not sent for a plan without api_access (a downgraded tenant keeps its endpoints)', async () => {
    const tenantId = await tenant('free');
    await endpoint(tenantId);
    await event(tenantId, 'free-1');
    await ticks(relay(), 3);
    expect(hooks.received).toEqual([]);
  });
});

describe('order', () => {
  it('sends events claimed together in the order they were queued (fan-outs of a tenant go one after the other)', async () => {
    const tenantId = await tenant();
    await endpoint(tenantId);
    const keys = ['o1', 'o2', 'o3', 'o4', 'o5'];
    for (const k of keys) await event(tenantId, k);
    await ticks(relay(), 14);
    expect(hooks.received.map((x) => (JSON.parse(x.body) as { data: { key: string } }).data.key)).toEqual(keys);
  });
});

describe('a receiver that fails for a while', () => {
  it('gets every event once it recovers, in order, each once, with the same webhook-id on every attempt', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    hooks.answer = 500;
    for (const k of ['e1', 'e2', 'e3']) await event(tenantId, k);
    const r = relay();
    // The outage: the first delivery is retried; the later ones wait behind it and are never sent.
    await ticks(r, MAX_ATTEMPTS - 2);
    const keys = (xs: ReceivedWebhook[]) => xs.map((x) => (JSON.parse(x.body) as { data: { key: string } }).data.key);
    expect(hooks.received.length).toBeGreaterThan(1);
    expect(new Set(keys(hooks.received))).toEqual(new Set(['e1']));
    expect(new Set(hooks.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    const during = await listDeliveries(t.db, tenantId, ep.id, { limit: 10, offset: 0 });
    expect(during.rows.map((d) => [d.status, d.last_status_code])).toEqual([
      ['pending', null],
      ['pending', null],
      ['pending', 500],
    ]);
    hooks.answer = 200;
    await ticks(r, 8);
    const delivered = hooks.received.filter((x) => x.answered === 200);
    expect(keys(delivered)).toEqual(['e1', 'e2', 'e3']);
    const after = await listDeliveries(t.db, tenantId, ep.id, { limit: 10, offset: 0 });
    expect(after.rows.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(after.rows.at(-1)!.attempts).toBe(hooks.received.filter((x) => keys([x])[0] === 'e1').length);
  });

  it('fails a delivery at its last attempt, and the next delivery then goes', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    hooks.answer = 503;
    await event(tenantId, 'f1');
    await event(tenantId, 'f2');
    const r = relay();
    await ticks(r, MAX_ATTEMPTS + 1);
    const log = await listDeliveries(t.db, tenantId, ep.id, { limit: 10, offset: 0 });
    const first = log.rows.at(-1)!;
    expect(first).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_status_code: 503 });
    hooks.answer = 200;
    await ticks(r, 4);
    expect((await findDelivery(t.db, log.rows[0]!.id))!.status).toBe('delivered');
  });
});

describe('endpoints that must get nothing', () => {
  it('sends nothing to a disabled endpoint: no delivery for new events, and a queued one is not sent', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    const r = relay();
    await event(tenantId, 'd1');
    await r.tick(); // fanned out: the delivery is queued
    await t.db.transaction((tx) => updateEndpoint(tx, tenantId, ep.id, { enabled: false, disabledReason: 'owner' }));
    await event(tenantId, 'd2');
    await ticks(r, 4);
    expect(hooks.received).toEqual([]);
    const log = await listDeliveries(t.db, tenantId, ep.id, { limit: 10, offset: 0 });
    expect(log.rows).toMatchObject([{ status: 'failed', attempts: 0, last_error: 'endpoint disabled' }]);
  });

  it('disables the endpoint when the receiver answers 410 Gone, and sends it nothing more', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    hooks.answer = 410;
    await event(tenantId, 'g1');
    await event(tenantId, 'g2');
    await ticks(relay(), 5);
    expect(hooks.received).toHaveLength(1);
    expect(await findEndpoint(t.db, tenantId, ep.id)).toMatchObject({ enabled: false, disabled_reason: 'gone' });
  });
});

describe('where webhooks may go', () => {
  it('sends nothing to a loopback receiver unless loopback receivers are allowed, and says why in the log', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    const strict = new WebhookDispatch({
      db: t.db,
      box,
      maxAttempts: 1,
      orderWaitMs: 1,
      timeoutMs: 2_000,
      allowLoopback: false,
    });
    await dispatch.fanOut(
      tenantId,
      {
        type: 'lead.created',
        eventKey: 'lead.created:l1',
        occurredAt: new Date().toISOString(),
        data: {},
      },
      0,
    );
    const [d] = (await listDeliveries(t.db, tenantId, ep.id, { limit: 1, offset: 0 })).rows;
    await expect(strict.deliver({ deliveryId: d!.id }, 1)).rejects.toThrow(/not allowed/);
    expect(hooks.received).toEqual([]);
    expect(await findDelivery(t.db, d!.id)).toMatchObject({ status: 'failed', last_error: 'the URL is not allowed' });
  });
});

describe('the signing secret', () => {
  it('is stored sealed: neither the secret nor its key appears in the database', async () => {
    const tenantId = await tenant();
    const ep = await endpoint(tenantId);
    const row = (
      await t.db.query<{ all: string }>('SELECT row_to_json(e)::text AS all FROM webhook_endpoints e WHERE id = $1', [
        ep.id,
      ])
    ).rows[0]!;
    const key = ep.secret.slice('whsec_'.length);
    expect(Buffer.from(key, 'base64').length).toBeGreaterThanOrEqual(24);
    expect(row.all).not.toContain(key);
    expect(row.all).not.toContain(Buffer.from(key, 'base64').toString('hex'));
    expect(row.all).toMatch(/"secret_enc":"v1\./);
  });
});
