/**
 * The owner's console's integrations API against the local stand-ins (SMS, accounting, team chat):
 * nothing configured reads as such; bad input is a 422 naming the field; secrets are never answered
 * (last four characters at most) and are stored sealed; a test text reaches the SMS stand-in from the
 * tenant's line once the worker's job runs, a test message reaches the chat stand-in at once, Connect
 * gives the provider's authorize URL whose approval connects the tenant, the check reads at the
 * provider, Disconnect forgets the grant; office staff are refused; tenant B cannot read or change A's.
 */
import { randomBytes } from 'node:crypto';

import {
  accountingConnectionSchema,
  chatOrigins,
  createAccountingServices,
  IntegrationSettingsService,
  SmsService,
} from '@platform/integrations';
import { justCallSmsAdapters, normalizeSmsPhone, xeroAccountingAdapters } from '@platform/providers';
import {
  type RunningLocalAccounting,
  type RunningLocalChat,
  type RunningLocalSms,
  startLocalAccounting,
  startLocalChat,
  startLocalSms,
} from '@platform/providers/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ControlKit, startControlKit } from '../../testing/control-test-kit.js';

type T = Awaited<ReturnType<ControlKit['tenant']>>;
const SMS = { apiKey: 'acme-sms-key-4821', apiSecret: 'acme-sms-secret-77aa', webhookSecret: 'acme-whsec-0123456789' };
const APP = {
  clientId: 'acme-client',
  clientSecret: 'acme-client-secret-0123',
  webhookKey: 'acme-webhook-key-'.repeat(2),
};
const REDIRECT = 'http://localhost:8069/acct/callback';

let kit: ControlKit;
let a: T;
let b: T;
let sms: RunningLocalSms;
let chat: RunningLocalChat;
let acct: RunningLocalAccounting;
let settings: IntegrationSettingsService;

beforeAll(async () => {
  [sms, chat, acct] = await Promise.all([
    startLocalSms({ ...SMS, lines: [{ number: '13035550100', name: 'Acme Sales' }] }),
    startLocalChat({ host: '127.0.0.1', port: 0 }),
    startLocalAccounting({ ...APP, redirectUris: [REDIRECT], tenants: [{ tenantName: 'Acme Blinds Ltd' }] }),
  ]);
  const env = {
    SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
    SMS_API_URL: sms.url,
    CHAT_ALLOWED_ORIGINS: `https://chat.googleapis.com,${new URL(chat.url).origin}`,
    ACCT_LOGIN_URL: acct.url,
    ACCT_IDENTITY_URL: acct.url,
    ACCT_API_URL: acct.url,
  };
  kit = await startControlKit(env);
  a = await kit.tenant('int-a', 'starter');
  b = await kit.tenant('int-b', 'starter');
  settings = new IntegrationSettingsService(
    kit.t.db,
    kit.deps.box,
    (raw) => normalizeSmsPhone(raw, 'US'),
    chatOrigins(env.CHAT_ALLOWED_ORIGINS),
  );
}, 60_000);
afterAll(async () => {
  await kit?.close();
  await Promise.all([sms?.close(), chat?.close(), acct?.close()]);
});

const call = (method: 'GET' | 'POST' | 'PUT', path: string, token: string, payload?: object) =>
  kit.app.inject({
    method,
    url: `/api/tenants/${path}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
const view = async (t: T) => (await call('GET', `${t.id}/integrations`, t.token)).json();
const fields = (r: { json(): any }) => (r.json().errors as { field: string }[]).map((e) => e.field);

describe('reading the integrations', () => {
  it('says nothing is configured for a new company', async () => {
    expect(await view(b)).toEqual({
      accounting: {
        state: 'not_configured',
        name: null,
        organisation: null,
        last_sync_at: null,
        last_error: null,
        needs_attention: 0,
      },
      sms: { configured: false, api_key: null, webhook_base_url: null, webhook_url: null, lines: [] },
      chat: {
        configured: false,
        webhook_origin: null,
        enable_fsm: false,
        enable_sales: false,
        enable_invoice: false,
        enable_po: false,
      },
    });
  });

  it('refuses office staff and other tenants', async () => {
    const office = await kit.member(a.id, 'office');
    expect((await call('GET', `${a.id}/integrations`, office.token)).statusCode).toBe(403);
    expect((await call('GET', `${a.id}/integrations`, b.token)).statusCode).toBe(404);
  });
});

describe('SMS', () => {
  it('refuses bad credentials and lines naming the field, and a line or a test before the credentials', async () => {
    const bad = await call('PUT', `${a.id}/integrations/sms`, a.token, { api_key: 'k', webhook_base_url: 'ftp://x' });
    expect(bad.statusCode).toBe(422);
    expect(fields(bad)).toEqual(expect.arrayContaining(['api_key', 'api_secret', 'webhook_base_url']));
    const early = await call('POST', `${a.id}/integrations/sms/lines`, a.token, {
      name: 'Sales',
      phone_number: '303 555 0100',
      line_type: 'sales',
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'INTEGRATION_NOT_CONFIGURED' });
    const test = await call('POST', `${a.id}/integrations/sms/test`, a.token, { to: '303 555 0199' });
    expect(test.json()).toMatchObject({ code: 'INTEGRATION_NOT_CONFIGURED' });
  });

  it('saves the credentials sealed and answers only their last four characters', async () => {
    const r = await call('PUT', `${a.id}/integrations/sms`, a.token, {
      api_key: SMS.apiKey,
      api_secret: SMS.apiSecret,
      webhook_base_url: 'http://localhost:8069',
      webhook_secret: SMS.webhookSecret,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().sms).toMatchObject({
      configured: true,
      api_key: '••••4821',
      webhook_url: 'http://localhost:8069/sms/webhook/int-a/sms',
    });
    expect(r.body).not.toContain(SMS.apiSecret);
    const stored = await kit.t.db.query('SELECT * FROM sms_configs WHERE tenant_id = $1', [a.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(SMS.apiKey);
  });

  it('adds a line (a bad number is a 422 on phone_number) and sends a test text that reaches the stand-in', async () => {
    const bad = await call('POST', `${a.id}/integrations/sms/lines`, a.token, {
      name: 'Sales',
      phone_number: '12',
      line_type: 'shop',
    });
    expect(fields(bad)).toEqual(expect.arrayContaining(['phone_number', 'line_type']));
    const line = await call('POST', `${a.id}/integrations/sms/lines`, a.token, {
      name: 'Sales',
      phone_number: '(303) 555-0100',
      line_type: 'sales',
    });
    expect(line.statusCode).toBe(201);
    expect(line.json().sms.lines).toEqual([expect.objectContaining({ phone_number: '13035550100', is_default: true })]);

    expect(fields(await call('POST', `${a.id}/integrations/sms/test`, a.token, { to: 'call me' }))).toEqual(['to']);
    const test = await call('POST', `${a.id}/integrations/sms/test`, a.token, { to: '303 555 0199' });
    expect(test.statusCode).toBe(202);
    const out = test.json();
    expect(out).toMatchObject({ ok: true, status: 'queued' });
    const waiting = await call('GET', `${a.id}/integrations/sms/messages/${out.message_id}`, a.token);
    expect(waiting.json()).toMatchObject({ status: 'queued', accepted: false });
    const job = await kit.t.db.query<{ topic: string }>(
      `SELECT topic FROM outbox WHERE tenant_id = $1 AND payload->>'messageId' = $2`,
      [a.id, out.message_id],
    );
    expect(job.rows).toEqual([{ topic: 'sms.send' }]);
    // What the worker's sms.send job does with it.
    await new SmsService(kit.t.db, settings, justCallSmsAdapters({ baseUrl: sms.url })).deliver(a.id, out.message_id);
    expect(sms.messages.at(-1)).toMatchObject({
      account: SMS.apiKey,
      direction: 'Outgoing',
      line: '13035550100',
      contact: '13035550199',
      body: expect.stringContaining('SMS is working'),
    });
    const status = await call('GET', `${a.id}/integrations/sms/messages/${out.message_id}`, a.token);
    expect(status.json()).toMatchObject({ from: '13035550100', to: '13035550199', accepted: true });
    // B cannot read A's text, even through its own tenant's path.
    expect((await call('GET', `${b.id}/integrations/sms/messages/${out.message_id}`, b.token)).statusCode).toBe(404);
  });
});

describe('team chat', () => {
  it('refuses a URL that is no incoming webhook on an allowed origin, and a first setting without one', async () => {
    const elsewhere = await call('PUT', `${a.id}/integrations/chat`, a.token, {
      webhook_url: 'https://evil.example/v1/spaces/X/messages?key=k&token=t',
    });
    expect(fields(elsewhere)).toEqual(['webhook_url']);
    const flagsOnly = await call('PUT', `${a.id}/integrations/chat`, a.token, { enable_fsm: true });
    expect(fields(flagsOnly)).toEqual(['webhook_url']);
    expect((await call('POST', `${a.id}/integrations/chat/test`, a.token)).json()).toMatchObject({
      code: 'INTEGRATION_NOT_CONFIGURED',
    });
  });

  it('saves the URL and flags, shows only its origin, and posts a test that reaches the stand-in', async () => {
    const url = chat.webhookUrl('AcmeSpace');
    const r = await call('PUT', `${a.id}/integrations/chat`, a.token, {
      webhook_url: url,
      enable_sales: true,
      enable_po: true,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().chat).toEqual({
      configured: true,
      webhook_origin: new URL(chat.url).origin,
      enable_fsm: false,
      enable_sales: true,
      enable_invoice: false,
      enable_po: true,
    });
    expect(r.body).not.toContain('token=');
    const flags = await call('PUT', `${a.id}/integrations/chat`, a.token, { enable_po: false, enable_fsm: true });
    expect(flags.json().chat).toMatchObject({ enable_fsm: true, enable_sales: true, enable_po: false });
    const test = await call('POST', `${a.id}/integrations/chat/test`, a.token);
    expect(test.json()).toMatchObject({ ok: true });
    expect(chat.messages.at(-1)).toMatchObject({ space: 'AcmeSpace' });
    expect(JSON.stringify(chat.messages.at(-1))).toContain('team chat is working');
  });
});

describe('accounting', () => {
  it('connects through the authorize URL it gives, checks with a read, and disconnects', async () => {
    expect((await call('POST', `${a.id}/integrations/accounting/connect`, a.token)).json()).toMatchObject({
      code: 'INTEGRATION_NOT_CONFIGURED',
    });
    // The app's credentials are the operator's (CLI or the ERP host's admin API); the owner connects.
    await settings.setAccountingConnection(
      a.id,
      accountingConnectionSchema.parse({
        name: 'Acme books',
        client_id: APP.clientId,
        client_secret: APP.clientSecret,
        redirect_uri: REDIRECT,
        webhook_key: APP.webhookKey,
      }),
    );
    expect((await view(a)).accounting).toMatchObject({ state: 'disconnected', name: 'Acme books' });
    const start = await call('POST', `${a.id}/integrations/accounting/connect`, a.token);
    const authorize = new URL(start.json().authorize_url);
    expect(authorize.origin).toBe(new URL(acct.url).origin);
    expect((await view(a)).accounting.state).toBe('connecting');
    // The provider approves and sends the browser to the ERP host's callback, which finishes it.
    const approved = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    const services = createAccountingServices(
      kit.t.db,
      settings,
      xeroAccountingAdapters({ loginUrl: acct.url, identityUrl: acct.url, apiUrl: acct.url }),
    );
    const done = await services.connect.callback({
      state: back.searchParams.get('state')!,
      code: back.searchParams.get('code')!,
      receivedUrl: REDIRECT,
    });
    expect(done).toMatchObject({ ok: true });
    expect((await view(a)).accounting).toMatchObject({ state: 'connected', organisation: 'Acme Blinds Ltd' });

    const reads = acct.requests.length;
    expect((await call('POST', `${a.id}/integrations/accounting/test`, a.token)).json()).toMatchObject({ ok: true });
    expect(acct.requests.length).toBeGreaterThan(reads);

    const off = await call('POST', `${a.id}/integrations/accounting/disconnect`, a.token);
    expect(off.json().accounting).toMatchObject({ state: 'disconnected', organisation: null });
    expect((await call('POST', `${a.id}/integrations/accounting/test`, a.token)).json()).toMatchObject({ ok: false });
  });
});

describe('across tenants', () => {
  it("refuses B every action on A's integrations and changes nothing of A's", async () => {
    const before = await view(a);
    const sent = chat.messages.length;
    const tries: [string, string, object?][] = [
      ['PUT', 'sms', { api_key: 'xxxx', api_secret: 'yyyy', webhook_base_url: 'http://localhost:1' }],
      ['POST', 'sms/lines', { name: 'X', phone_number: '303 555 0111', line_type: 'sales' }],
      ['PUT', 'chat', { enable_fsm: false }],
      ['POST', 'sms/test', { to: '303 555 0199' }],
      ['POST', 'chat/test'],
      ['POST', 'accounting/test'],
      ['POST', 'accounting/connect'],
      ['POST', 'accounting/disconnect'],
    ];
    for (const [method, path, body] of tries)
      expect((await call(method as 'PUT', `${a.id}/integrations/${path}`, b.token, body)).statusCode).toBe(404);
    expect(await view(a)).toEqual(before);
    expect(chat.messages.length).toBe(sent);
    expect((await view(b)).sms.configured).toBe(false);
  });
});
