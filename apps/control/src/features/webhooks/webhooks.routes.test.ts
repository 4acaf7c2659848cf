/**
 * The outbound webhooks API of the control plane: gated by the plan's api_access, owners and admins
 * only, the secret answered once and stored sealed, bad input refused naming the field, another
 * tenant seeing and changing none of it, and the delivery log with its replay (same webhook-id,
 * verified by the Standard Webhooks library; one Idempotency-Key queues one attempt).
 */
import { randomBytes } from 'node:crypto';

import { type OutboxHandlers, OutboxRelay } from '@platform/outbox';
import { enqueueWebhookEvent, WebhookDispatch } from '@platform/webhooks';
import { type LoopbackReceiver, startLoopbackReceiver } from '@platform/webhooks/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

type T = Awaited<ReturnType<ControlKit['tenant']>>;
let kit: ControlKit;
let a: T;
let b: T;
let free: T;
let hooks: LoopbackReceiver;
let hookUrl: string;

beforeAll(async () => {
  kit = await startControlKit({
    SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
    WEBHOOK_ALLOW_LOOPBACK: 'on',
  });
  a = await kit.tenant('wh-a', 'professional');
  b = await kit.tenant('wh-b', 'professional');
  free = await kit.tenant('wh-free', 'free');
  hooks = await startLoopbackReceiver();
  hookUrl = hooks.url;
});
afterAll(async () => {
  await hooks?.close();
  await kit?.close();
});

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  token: string,
  payload?: object,
  headers: Record<string, string> = {},
) =>
  kit.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(payload ? { payload } : {}),
  });
const create = (t: T, body: object = { url: hookUrl, events: ['lead.created'] }) =>
  call('POST', `/api/tenants/${t.id}/webhooks`, t.token, body);

/** The worker's part, run here directly: fan-out and delivery through a relay, tick by tick. */
function worker() {
  const dispatch = new WebhookDispatch({
    db: kit.t.db,
    box: kit.deps.box,
    maxAttempts: 5,
    orderWaitMs: 1,
    timeoutMs: 2_000,
    allowLoopback: true,
  });
  const handlers: OutboxHandlers = {
    'webhook.event': (row) => dispatch.fanOut(row.tenant_id, row.payload, row.id),
    'webhook.delivery': (row) => dispatch.deliver(row.payload, row.attempts),
  };
  const relay = new OutboxRelay({
    db: kit.t.db,
    workerId: 'control-test',
    handlers,
    logger: { info() {}, warn() {}, error() {} },
    baseDelayMs: 1,
    maxDelayMs: 1,
    random: () => 0,
  });
  return async () => {
    for (let i = 0; i < 3; i++) await relay.tick();
  };
}

describe('the plan and the role', () => {
  it('refuses a plan without api_access, naming the cheapest plan with it', async () => {
    const r = await create(free);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({
      code: 'PLAN_FEATURE_MISSING',
      feature: 'api_access',
      required_plan: 'professional',
    });
    expect((await call('GET', `/api/tenants/${free.id}/webhooks`, free.token)).statusCode).toBe(403);
  });

  it('refuses members who are not owners or admins', async () => {
    const tech = await kit.member(a.id, 'technician');
    expect((await create({ ...a, token: tech.token })).statusCode).toBe(403);
    const admin = await kit.member(a.id, 'admin');
    expect((await create({ ...a, token: admin.token })).statusCode).toBe(201);
  });
});

describe('an endpoint', () => {
  it('is created with its secret shown once, listed without it, and stored sealed', async () => {
    const r = await create(a, { url: hookUrl, events: ['lead.created', 'quote.sent'], description: 'CRM sync' });
    expect(r.statusCode).toBe(201);
    const made = r.json();
    expect(made).toMatchObject({ url: hookUrl, events: ['lead.created', 'quote.sent'], enabled: true });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(made.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const listed = await call('GET', `/api/tenants/${a.id}/webhooks`, a.token);
    expect(listed.body).not.toContain(made.secret);
    expect(listed.json().items.map((e: { id: string }) => e.id)).toContain(made.id);
    const one = await call('GET', `/api/tenants/${a.id}/webhooks/${made.id}`, a.token);
    expect(one.json()).not.toHaveProperty('secret');
    const stored = await kit.t.db.query<{ row: string }>(
      'SELECT row_to_json(e)::text AS row FROM webhook_endpoints e WHERE id = $1',
      [made.id],
    );
    expect(stored.rows[0]!.row).not.toContain(made.secret.slice(6));
  });

  it('is disabled, enabled, given a new secret and deleted, each audited', async () => {
    const made = (await create(a)).json();
    const base = `/api/tenants/${a.id}/webhooks/${made.id}`;
    expect((await call('PATCH', base, a.token, { enabled: false })).json()).toMatchObject({
      enabled: false,
      disabled_reason: 'owner',
    });
    expect((await call('PATCH', base, a.token, { enabled: true })).json()).toMatchObject({
      enabled: true,
      disabled_reason: null,
    });
    const rotated = (await call('POST', `${base}/rotate-secret`, a.token)).json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    expect((await call('DELETE', base, a.token)).statusCode).toBe(204);
    expect((await call('GET', base, a.token)).statusCode).toBe(404);
    const audit = await kit.t.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE tenant_id = $1 AND target_id = $2 ORDER BY id`,
      [a.id, made.id],
    );
    // Receivers' URLs often carry a token: the audit log keeps their host only.
    const created = await kit.t.db.query<{ detail: Record<string, unknown> }>(
      `SELECT detail FROM audit_log WHERE tenant_id = $1 AND target_id = $2 AND action = 'webhook.create'`,
      [a.id, made.id],
    );
    expect(created.rows[0]!.detail).toEqual({ host: new URL(hookUrl).host, events: ['lead.created'] });
    expect(audit.rows.map((x) => x.action)).toEqual([
      'webhook.create',
      'webhook.update',
      'webhook.update',
      'webhook.rotate_secret',
      'webhook.delete',
    ]);
  });
});

describe('bad input', () => {
  const fields = async (body: object) => {
    const r = await create(a, body);
    expect(r.statusCode).toBe(422);
    expect(r.headers['content-type']).toContain('application/problem+json');
    expect(r.json().code).toBe('VALIDATION_FAILED');
    return r.json().errors.map((e: { field: string }) => e.field);
  };

  it('is refused naming the field: a URL that is not https (or loopback http), an unknown event, none at all', async () => {
    expect(await fields({ url: 'ftp://example.com/x', events: ['lead.created'] })).toEqual(['url']);
    expect(await fields({ url: 'http://example.com/x', events: ['lead.created'] })).toEqual(['url']);
    expect(await fields({ url: 'https://user:pw@example.com/x', events: ['lead.created'] })).toEqual(['url']);
    // The platform's own network is not reachable through a tenant's webhook.
    for (const url of [
      'https://10.0.0.5/x',
      'https://169.254.169.254/latest',
      'https://[fd00::1]/x',
      'https://intranet/x',
    ])
      expect(await fields({ url, events: ['lead.created'] }), url).toEqual(['url']);
    expect(await fields({ url: 'https://example.com/x', events: ['invoice.exploded'] })).toEqual(['events.0']);
    expect(await fields({ url: 'https://example.com/x', events: [] })).toEqual(['events']);
    expect(await fields({ url: 'https://example.com/\u0000', events: ['lead.created'], extra: 1 })).toContain('url');
    const r = await call('GET', `/api/tenants/${a.id}/webhooks/not-a-uuid/deliveries`, a.token);
    expect(r.statusCode).toBe(422);
    expect(r.json().errors[0].field).toBe('endpoint_id');
  });
});

describe('the delivery log and replay', () => {
  it('lists a delivered lead.created and replays it with the same webhook-id, once per Idempotency-Key', async () => {
    // A tenant of its own: every endpoint subscribed to lead.created gets the event.
    const a = await kit.tenant('wh-log', 'professional');
    const made = (await create(a)).json();
    await kit.t.db.transaction((tx) =>
      enqueueWebhookEvent(tx, a.id, {
        type: 'lead.created',
        eventKey: 'lead.created:log-1',
        occurredAt: new Date().toISOString(),
        data: { lead_id: 7 },
      }),
    );
    const run = worker();
    hooks.received = [];
    await run();
    expect(hooks.received).toHaveLength(1);
    const log = await call('GET', `/api/tenants/${a.id}/webhooks/${made.id}/deliveries?page_size=10`, a.token);
    expect(log.statusCode).toBe(200);
    const [d] = log.json().items;
    expect(log.json().total).toBe(1);
    expect(d).toMatchObject({
      event_type: 'lead.created',
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      webhook_id: hooks.received[0]!.headers['webhook-id'],
    });
    expect(typeof d.last_duration_ms).toBe('number');

    const replayUrl = `/api/tenants/${a.id}/webhooks/${made.id}/deliveries/${d.id}/replay`;
    const first = await call('POST', replayUrl, a.token, undefined, { 'idempotency-key': 'replay-1' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ delivery_id: d.id, webhook_id: d.webhook_id, status: 'pending' });
    const again = await call('POST', replayUrl, a.token, undefined, { 'idempotency-key': 'replay-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await run();
    expect(hooks.received).toHaveLength(2);
    const replayed = hooks.received[1]!;
    expect(replayed.headers['webhook-id']).toBe(d.webhook_id);
    expect(new Webhook(made.secret).verify(replayed.body, replayed.headers)).toMatchObject({
      type: 'lead.created',
      data: { lead_id: 7 },
    });
    const after = (await call('GET', `/api/tenants/${a.id}/webhooks/${made.id}/deliveries`, a.token)).json();
    expect(after.items[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('refuses to replay to a disabled endpoint', async () => {
    const made = (await create(a)).json();
    await kit.t.db.transaction((tx) =>
      enqueueWebhookEvent(tx, a.id, {
        type: 'lead.created',
        eventKey: 'lead.created:log-2',
        occurredAt: new Date().toISOString(),
        data: {},
      }),
    );
    await worker()();
    const [d] = (await call('GET', `/api/tenants/${a.id}/webhooks/${made.id}/deliveries`, a.token)).json().items;
    await call('PATCH', `/api/tenants/${a.id}/webhooks/${made.id}`, a.token, { enabled: false });
    const r = await call('POST', `/api/tenants/${a.id}/webhooks/${made.id}/deliveries/${d.id}/replay`, a.token);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: 'WEBHOOK_ENDPOINT_DISABLED', disabled_reason: 'owner' });
  });
});

describe('another tenant', () => {
  it("can neither see nor change A's endpoints and deliveries, through its own tenant or A's", async () => {
    const made = (await create(a)).json();
    await kit.t.db.transaction((tx) =>
      enqueueWebhookEvent(tx, a.id, {
        type: 'lead.created',
        eventKey: 'lead.created:iso-1',
        occurredAt: new Date().toISOString(),
        data: {},
      }),
    );
    await worker()();
    const [d] = (await call('GET', `/api/tenants/${a.id}/webhooks/${made.id}/deliveries`, a.token)).json().items;
    // Through A's tenant id: no such tenant for B, before anything is read.
    expect((await call('GET', `/api/tenants/${a.id}/webhooks`, b.token)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/tenants/${a.id}/webhooks/${made.id}`, b.token)).statusCode).toBe(404);
    // Through its own tenant id with A's ids: not found, nothing changed.
    const own = `/api/tenants/${b.id}/webhooks/${made.id}`;
    expect((await call('GET', `/api/tenants/${b.id}/webhooks`, b.token)).json().items).toEqual([]);
    expect((await call('GET', own, b.token)).statusCode).toBe(404);
    expect((await call('PATCH', own, b.token, { enabled: false })).statusCode).toBe(404);
    expect((await call('POST', `${own}/rotate-secret`, b.token)).statusCode).toBe(404);
    expect((await call('GET', `${own}/deliveries`, b.token)).statusCode).toBe(404);
    expect((await call('POST', `${own}/deliveries/${d.id}/replay`, b.token)).statusCode).toBe(404);
    expect((await call('DELETE', own, b.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/tenants/${a.id}/webhooks/${made.id}`, a.token)).json()).toMatchObject({
      enabled: true,
    });
  });
});
