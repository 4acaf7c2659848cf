import { randomBytes } from 'node:crypto';

import { createTwoTenantDb, type TestDb } from '@platform/db';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { IntegrationSettingsService } from './integration-settings.service.js';
import { accountingConnectionSchema, chatConfigSchema, smsConfigSchema, smsLineSchema } from './settings.schemas.js';

let t: TestDb;
let tenant: string;
let other: string;
let svc: IntegrationSettingsService;
const box = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
// A deliberately simple normaliser: the real one (libphonenumber) is wired in by the apps.
const normalize = (raw: string) => {
  const d = raw.replace(/\D/g, '');
  return d.length === 10 ? `1${d}` : d.length === 11 && d.startsWith('1') ? d : undefined;
};

beforeAll(async () => {
  ({ t, a: tenant, b: other } = await createTwoTenantDb('settings'));
  svc = new IntegrationSettingsService(t.db, box, normalize);
}, 120_000);
afterAll(() => t.drop());

const everything = async () =>
  JSON.stringify((await t.db.query('SELECT * FROM accounting_connections, sms_configs, chat_configs')).rows);

describe('integration settings', () => {
  it('store every secret sealed and show them back masked', async () => {
    await svc.setAccountingConnection(
      tenant,
      accountingConnectionSchema.parse({
        name: 'Xero (main)',
        client_id: 'CLIENTID-123456',
        client_secret: 'CANARY-client-secret-9999',
        redirect_uri: 'https://erp.example.com/acct/callback',
        webhook_key: 'CANARY-webhook-key-abcdef0123',
      }),
    );
    await svc.setSmsConfig(
      tenant,
      smsConfigSchema.parse({
        api_key: 'CANARY-api-key-1',
        api_secret: 'CANARY-api-secret-2',
        webhook_base_url: 'https://erp.example.com/',
        webhook_secret: 'CANARY-webhook-secret-33',
      }),
    );
    const chat = await svc.setChatConfig(
      tenant,
      chatConfigSchema.parse({
        webhook_url: 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=CANARYKEY&token=CANARYTOKEN',
        enable_sales: true,
      }),
    );
    expect(await everything()).not.toMatch(/CANARY/);
    const shown = await svc.showAccountingConnection(tenant);
    expect(shown).toMatchObject({
      client_secret: '••••9999',
      webhook_key: '••••0123',
      status: 'disconnected',
      sales_account_code: '200',
    });
    expect(JSON.stringify(shown)).not.toMatch(/CANARY-client|CANARY-webhook/);
    expect(JSON.stringify(chat)).not.toMatch(/CANARY/);
    expect(await svc.showSmsConfig(tenant)).toMatchObject({
      api_secret: '••••et-2',
      webhook_url: 'https://erp.example.com/sms/webhook/sms',
    });
  });

  it('a sealed secret copied to another tenant does not open there', async () => {
    const row = (
      await t.db.query<{ webhook_url_enc: string }>('SELECT webhook_url_enc FROM chat_configs WHERE tenant_id = $1', [
        tenant,
      ])
    ).rows[0]!;
    await t.db.query(`INSERT INTO chat_configs (tenant_id, webhook_url_enc) VALUES ($1, $2)`, [
      other,
      row.webhook_url_enc,
    ]);
    // AES-GCM's authentication fails: the tenant id is bound into the sealed value.
    await expect(svc.chatConfig(other)).rejects.toThrow(/unable to authenticate data/);
    expect((await svc.chatConfig(tenant))?.webhookUrl).toContain('CANARYTOKEN');
  });

  it('normalises line numbers to E.164 digits, keeps exactly one default, finds lines by type', async () => {
    const first = await svc.addSmsLine(
      tenant,
      smsLineSchema.parse({ name: 'Sales', phone_number: '(303) 555-0100', line_type: 'sales' }),
    );
    expect(first).toMatchObject({ phone_number: '13035550100', is_default: true });
    const second = await svc.addSmsLine(
      tenant,
      smsLineSchema.parse({ name: 'Support', phone_number: '+1 303 555 0101', line_type: 'support' }),
    );
    expect(second.is_default).toBe(false);
    const third = await svc.addSmsLine(
      tenant,
      smsLineSchema.parse({ name: 'Ops', phone_number: '303.555.0102', line_type: 'operations', is_default: true }),
    );
    expect(third.is_default).toBe(true);
    const lines = (await svc.showSmsConfig(tenant)).lines as { is_default: boolean }[];
    expect(lines.filter((l) => l.is_default)).toHaveLength(1);
    expect((await svc.lineFor(tenant)).phone_number).toBe('13035550102');
    expect((await svc.lineFor(tenant, 'support')).phone_number).toBe('13035550101');
    await expect(
      svc.addSmsLine(tenant, smsLineSchema.parse({ name: 'Bad', phone_number: '12-34', line_type: 'sales' })),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses a plain-http redirect URI outside localhost and an unknown line type', () => {
    expect(
      accountingConnectionSchema.safeParse({
        name: 'x',
        client_id: 'CLIENTID-1',
        client_secret: 'secretsecret',
        redirect_uri: 'http://erp.example.com/acct/callback',
        webhook_key: 'k'.repeat(20),
      }).success,
    ).toBe(false);
    expect(smsLineSchema.safeParse({ name: 'x', phone_number: '3035550100', line_type: 'marketing' }).success).toBe(
      false,
    );
  });

  it('stores the tax mapping per connection and refuses a key that is not an ERP tax id', async () => {
    const base = {
      name: 'Xero',
      client_id: 'CLIENTID-123456',
      client_secret: 'secretsecret',
      redirect_uri: 'https://erp.example.com/acct/callback',
      webhook_key: 'k'.repeat(20),
    };
    const shown = await svc.setAccountingConnection(
      other,
      accountingConnectionSchema.parse({ ...base, tax_types: { '7': 'TAX825', '3,7': 'COMBINED' } }),
    );
    expect(shown).toMatchObject({
      tax_types: { '7': 'TAX825', '3,7': 'COMBINED' },
      no_tax_type: 'NONE',
      needs_attention: [],
    });
    const bad = accountingConnectionSchema.safeParse({ ...base, tax_types: { 'Sales 8%': 'TAX825' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['tax_types', 'Sales 8%']);
  });

  it('switches one chat flag without the webhook URL, keeping the URL and the other flags', async () => {
    const url = 'https://chat.googleapis.com/v1/spaces/FLAGS/messages?key=K&token=T';
    await t.db.query('DELETE FROM chat_configs WHERE tenant_id = $1', [other]);
    await expect(svc.setChatConfig(other, chatConfigSchema.parse({ enable_po: true }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldIssues: [expect.objectContaining({ field: 'webhook_url', rule: 'required' })],
    });
    await svc.setChatConfig(other, chatConfigSchema.parse({ webhook_url: url, enable_fsm: true, enable_sales: true }));
    const shown = await svc.setChatConfig(other, chatConfigSchema.parse({ enable_sales: false }));
    expect(shown).toMatchObject({ enable_fsm: true, enable_sales: false, enable_invoice: false, enable_po: false });
    expect((await svc.chatConfig(other))?.webhookUrl).toBe(url);
  });

  it("switches a flag from a process that does not know the stored URL's origin (the CLI beside npm start)", async () => {
    const local = 'http://127.0.0.1:41234/v1/spaces/AAAALocal/messages?key=K&token=T';
    const platform = new IntegrationSettingsService(t.db, box, normalize, ['http://127.0.0.1:41234']);
    await platform.setChatConfig(other, chatConfigSchema.parse({ webhook_url: local, enable_po: true }));
    const shown = await svc.setChatConfig(other, chatConfigSchema.parse({ enable_po: false }));
    expect(shown).toMatchObject({ enable_po: false });
    expect((await svc.chatConfig(other))?.webhookUrl).toBe(local);
    // A new URL on that origin is still refused where the origin is not allowed.
    await expect(svc.setChatConfig(other, chatConfigSchema.parse({ webhook_url: local }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldIssues: [expect.objectContaining({ field: 'webhook_url', rule: 'allowed_origin' })],
    });
  });
});
