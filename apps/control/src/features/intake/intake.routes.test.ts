/**
 * POST /leads and POST /helpdesk/tickets: durable (submission + outbox row in one commit), for the
 * signed-in office of the tenant named in the body, idempotent, rate-limited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type CrmSalesKit, startCrmSalesKit } from '../../testing/crm-sales-kit.js';

let k: CrmSalesKit;
beforeAll(async () => {
  k = await startCrmSalesKit({ INTAKE_RATE_LIMIT_PER_MINUTE: '8' });
  await k.kit.t.db.query(`UPDATE tenants SET site_name = 'Acme Blinds Denver', helpdesk_team_id = 7 WHERE id = $1`, [
    k.a.id,
  ]);
}, 120_000);
afterAll(async () => k?.close());

const lead = () => ({
  tenant_id: k.a.id,
  source: 'phone',
  name: 'Morgan Hale',
  phone: '720-555-0199',
  zip: '80202',
  message: 'Wants shutters for the bay window',
  products: ['plantation-shutters'],
  utm_source: 'google',
});

const outboxOf = (id: string) =>
  k.kit.t.db.query<{ tenant_id: string; topic: string; payload: Record<string, unknown> }>(
    'SELECT tenant_id, topic, payload FROM outbox WHERE aggregate_id = $1',
    [id],
  );

describe('POST /leads', () => {
  it("records the lead with its outbox row for the tenant's ERP, tagged with the tenant's site", async () => {
    const r = await k.call('POST', '/leads', k.a.office, lead());
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'accepted' });
    const sub = await k.kit.t.db.query<{ tenant_id: string; kind: string }>(
      'SELECT tenant_id, kind FROM submissions WHERE id = $1',
      [r.body.id],
    );
    expect(sub.rows).toEqual([{ tenant_id: k.a.id, kind: 'estimate' }]);
    const out = await outboxOf(r.body.id);
    expect(out.rows).toHaveLength(1);
    expect(out.rows[0]).toMatchObject({ tenant_id: k.a.id, topic: 'submission.estimate' });
    expect(out.rows[0]!.payload).toMatchObject({
      submissionId: r.body.id,
      source: 'phone',
      tags: ['SITE: ACME BLINDS DENVER'],
      contact: { name: 'Morgan Hale', phone: '720-555-0199', zip: '80202', email: null },
      attribution: { utm_source: 'google' },
    });
  });

  it('answers a retry with the same Idempotency-Key with the same id and records it once', async () => {
    const body = { ...lead(), name: 'Idem Potent' };
    const h = { 'idempotency-key': 'lead-key-1' };
    const one = await k.call('POST', '/leads', k.a.office, body, h);
    const two = await k.call('POST', '/leads', k.a.office, body, h);
    expect(two.status).toBe(201);
    expect(two.headers['idempotent-replayed']).toBe('true');
    expect(two.body.id).toBe(one.body.id);
    expect((await outboxOf(one.body.id)).rowCount).toBe(1);
    const reused = await k.call('POST', '/leads', k.a.office, { ...body, name: 'Someone Else' }, h);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('answers 404 when the body names another tenant, and writes nothing', async () => {
    const before = await k.kit.t.db.query('SELECT 1 FROM submissions');
    const r = await k.call('POST', '/leads', k.b.office, { ...lead(), name: 'Cross Tenant' });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NOT_FOUND');
    expect((await k.kit.t.db.query('SELECT 1 FROM submissions')).rowCount).toBe(before.rowCount);
  });

  it("answers 404 when the request's resolved host is another tenant's", async () => {
    const r = await k.call('POST', '/leads', k.a.office, { ...lead(), name: 'Wrong Host' }, { 'x-tenant-id': k.b.id });
    expect(r.status).toBe(404);
  });

  it('refuses a lead without any way to reach the person, naming both fields', async () => {
    const { phone: _p, ...noContact } = lead();
    const r = await k.call('POST', '/leads', k.a.office, noContact);
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string; rule: string }) => `${e.field}:${e.rule}`)).toEqual([
      'phone:required_one_of',
      'email:required_one_of',
    ]);
  });

  it('keeps technicians and anonymous callers out', async () => {
    expect((await k.call('POST', '/leads', k.a.technician, lead())).status).toBe(403);
    expect((await k.call('POST', '/leads', undefined, lead())).status).toBe(401);
  });
});

describe('POST /helpdesk/tickets', () => {
  it("records the ticket for the tenant's helpdesk team", async () => {
    const r = await k.call('POST', '/helpdesk/tickets', k.a.owner, {
      tenant_id: k.a.id,
      name: 'Lee Chan',
      email: 'lee@example.com',
      subject: 'Motor not responding',
      description: 'The living-room shade stopped after the power cut.',
    });
    expect(r.status).toBe(201);
    const out = await outboxOf(r.body.id);
    expect(out.rows[0]).toMatchObject({ topic: 'submission.helpdesk', tenant_id: k.a.id });
    expect(out.rows[0]!.payload).toMatchObject({
      helpdeskTeamId: 7,
      subject: 'Motor not responding',
      source: 'control',
    });
  });

  it('limits how fast one user can record', async () => {
    let last = 0;
    for (let i = 0; i < 10 && last !== 429; i++)
      last = (
        await k.call('POST', '/helpdesk/tickets', k.b.office, {
          tenant_id: k.b.id,
          name: 'Flood',
          email: 'flood@example.com',
          subject: `Ticket ${i}`,
          description: 'again',
        })
      ).status;
    expect(last).toBe(429);
  });
});
