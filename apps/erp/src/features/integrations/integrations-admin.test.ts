import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { adminApiCaller, apiKey, type RestHarness, startRestHarness } from '../../../test/support/restapi-harness.js';
import { composeErpApp, composeIntegrations } from '../../deps.js';
import { loadErpConfig } from '../../erp.config.js';

let h: RestHarness;
let app: FastifyInstance;
let dir: string;
let admin: string;
let reader: string;

beforeAll(async () => {
  h = await startRestHarness();
  dir = mkdtempSync(join(tmpdir(), 'integrations-admin-'));
  const integrations = composeIntegrations(loadErpConfig({ DATA_DIR: dir }), h.t.db, h.tenantId);
  app = composeErpApp({ erp: h.embedded, restapi: h.deps, integrations });
  admin = (await apiKey(h, 'admin:integrations')).key;
  reader = (await apiKey(h, 'read:res.partner')).key;
}, 180_000);
afterAll(async () => {
  await app?.close();
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = adminApiCaller(() => app, 'integrations');

describe('integration settings admin API', () => {
  it('needs a credential (401) with the admin:integrations scope (403)', async () => {
    expect((await call('GET', '/chat')).statusCode).toBe(401);
    const r = await call('GET', '/chat', reader);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 'API_FORBIDDEN' });
  });

  it('sets the team-chat configuration and shows it back without the webhook credentials', async () => {
    const put = await call('PUT', '/chat', admin, {
      webhook_url: 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=K-SECRET&token=T-SECRET',
      enable_fsm: true,
      enable_po: true,
    });
    expect(put.statusCode).toBe(200);
    const shown = (await call('GET', '/chat', admin)).json();
    expect(shown).toMatchObject({ enable_fsm: true, enable_sales: false, enable_invoice: false, enable_po: true });
    expect(JSON.stringify(shown)).not.toMatch(/SECRET/);
  });

  it('refuses a team-chat webhook URL outside CHAT_ALLOWED_ORIGINS with 422 naming the field and the rule, saving nothing', async () => {
    const before = (await call('GET', '/chat', admin)).json();
    const r = await call('PUT', '/chat', admin, {
      webhook_url: 'https://attacker.example.net/v1/spaces/AAA/messages?key=K&token=T',
      enable_sales: true,
    });
    expect(r.statusCode).toBe(422);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(r.json().errors).toEqual([expect.objectContaining({ field: 'webhook_url', rule: 'allowed_origin' })]);
    const notWebhook = await call('PUT', '/chat', admin, {
      webhook_url: 'https://chat.googleapis.com/v1/spaces/AAA',
      enable_sales: true,
    });
    expect(notWebhook.statusCode).toBe(422);
    expect(notWebhook.json().errors).toEqual([expect.objectContaining({ field: 'webhook_url', rule: 'format' })]);
    expect((await call('GET', '/chat', admin)).json()).toEqual(before);
  });

  it('sets SMS settings and lines (normalised, one default) and queues a message from the default line', async () => {
    expect(
      (
        await call('PUT', '/sms', admin, {
          api_key: 'key-123456',
          api_secret: 'secret-ABCDEF',
          webhook_base_url: 'https://erp.example.com',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call('POST', '/sms/lines', admin, { name: 'Sales', phone_number: '(303) 555-0100', line_type: 'sales' })
      ).json(),
    ).toMatchObject({ phone_number: '13035550100', is_default: true });
    const bad = await call('POST', '/sms/lines', admin, { name: 'Bad', phone_number: '555', line_type: 'sales' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0]).toMatchObject({ field: 'phone_number' });
    const sent = await call('POST', '/sms/messages', admin, { to: '720-555-0123', body: 'Your quote is ready.' });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toMatchObject({ from: '13035550100', status: 'queued' });
    const shown = (await call('GET', '/sms', admin)).json();
    expect(shown).toMatchObject({
      api_secret: '••••CDEF',
      default_line: '13035550100',
      webhook_url: 'https://erp.example.com/sms/webhook/sms',
    });
  });

  it('refuses an accounting connection with a plain-http redirect URI, naming the field', async () => {
    const r = await call('PUT', '/accounting', admin, {
      name: 'Xero',
      client_id: 'CLIENT-0001',
      client_secret: 'shhh-secret',
      redirect_uri: 'http://erp.example.com/acct/callback',
      webhook_key: 'k'.repeat(32),
    });
    expect(r.statusCode).toBe(422);
    expect(r.json().errors).toEqual([expect.objectContaining({ field: 'redirect_uri', rule: 'https' })]);
  });

  it("manages the credential's own company only: another tenant named in ?tenant= is refused (403), nothing shown", async () => {
    const other = (
      await h.t.db.query<{ id: string }>(
        `INSERT INTO tenants (slug, name, status) VALUES ('other-co', 'Other', 'active') RETURNING id`,
      )
    ).rows[0]!.id;
    const own = (await h.t.db.query<{ slug: string }>('SELECT slug FROM tenants WHERE id = $1', [h.tenantId])).rows[0]!;
    expect((await call('GET', `/chat?tenant=${own.slug}`, admin)).statusCode).toBe(200);
    for (const named of ['other-co', 'no-such-co']) {
      const r = await call('GET', `/sms?tenant=${named}`, admin);
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ code: 'API_FORBIDDEN' });
      expect(r.body).not.toContain('13035550100');
    }
    const put = await call('PUT', '/chat?tenant=other-co', admin, {
      webhook_url: 'https://chat.googleapis.com/v1/spaces/BBB/messages?key=K&token=T',
      enable_sales: true,
    });
    expect(put.statusCode).toBe(403);
    expect((await h.t.db.query('SELECT 1 FROM chat_configs WHERE tenant_id = $1', [other])).rowCount).toBe(0);
  });

  it('answers the SMS webhook connectivity test', async () => {
    const r = await app.inject({ method: 'GET', url: '/sms/webhook/test' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 'ok', service: 'sms-webhook', configured: true });
  });
});
