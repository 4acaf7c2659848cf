/**
 * `npm start` on embedded defaults gives every tenant, not only the default, its own account at the
 * SMS and accounting stand-ins, and points that tenant's settings at them with its own webhook URLs;
 * a tenant created while running is pointed at the next pass, and a setting the user made is kept.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import {
  accountingConnectionSchema,
  chatConfigSchema,
  IntegrationSettingsService,
  smsConfigSchema,
  smsWebhookPath,
} from '@platform/integrations';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { ensureDefaultTenant } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type LocalProviders, startLocalProviders } from './local-providers.js';
import { useLocalProviders } from './local-settings.js';
import type { PlatformConfig } from './platform.config.js';

let t: TestDb;
let dataDir: string;
let erp: Server;
let erpUrl: string;
let settings: IntegrationSettingsService;
const box = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
const running: LocalProviders[] = [];
/** Paths the ERP host's webhooks were posted to. */
const posted: string[] = [];
const ids: Record<string, string> = {};

const config = () =>
  ({
    LOCAL_PROVIDERS: 'on',
    DATA_DIR: dataDir,
    LOCAL_PROVIDERS_PORT: 0,
    ERP_PORT: 0,
    CHAT_ALLOWED_ORIGINS: '',
    EMAIL_SMTP_URL: 'smtp://127.0.0.1:1', // no mailbox here
  }) as unknown as PlatformConfig;
async function start(): Promise<LocalProviders> {
  const local = (await startLocalProviders(config()))!;
  running.push(local);
  await local.bind(erpUrl);
  // As a start builds them: the stand-in receiver's origin is allowed for team chat.
  settings = new IntegrationSettingsService(t.db, box, (raw) => raw.replace(/\D/g, ''), [
    new URL(local.chat!.url).origin,
  ]);
  return local;
}
const addTenant = async (slug: string, status = 'active') =>
  (ids[slug] = (
    await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name, status) VALUES ($1, $2, $3) RETURNING id`, [
      slug,
      `${slug} Blinds`,
      status,
    ])
  ).rows[0]!.id);

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  ids['default'] = (await ensureDefaultTenant(t.db, 'default')).id;
  dataDir = mkdtempSync(join(tmpdir(), 'local-tenants-'));
  erp = createServer((req, res) => {
    posted.push(req.url ?? '');
    req.resume().on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => erp.listen(0, '127.0.0.1', r));
  erpUrl = `http://127.0.0.1:${(erp.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  for (const l of running) await l.close();
  await new Promise((r) => erp?.close(r));
  await t?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const port = () => Number(new URL(erpUrl).port);
const lines = async (slug: string) =>
  ((await settings.showSmsConfig(ids[slug]!)) as { lines: { phone_number: string }[] }).lines.map(
    (l) => l.phone_number,
  );

describe('every tenant on its own local stand-in accounts', () => {
  it('gives each tenant its own SMS account, line and accounting app, with notices at its own URLs', async () => {
    await addTenant('birch');
    const local = await start();
    expect(await useLocalProviders(settings, t.db, local, erpUrl, port())).toEqual({
      default: ['sms', 'accounting', 'chat'],
      birch: ['sms', 'accounting', 'chat'],
    });
    const birch = local.credentials.tenants!['birch']!;
    expect(birch.sms.apiKey).not.toBe(local.credentials.sms.apiKey);
    expect((await settings.smsSecrets(ids['birch']!))?.apiKey).toBe(birch.sms.apiKey);
    expect(await lines('birch')).toEqual(['13035550101']);
    expect(await lines('default')).toEqual(['13035550100']);
    expect(await settings.showAccountingConnection(ids['birch']!)).toMatchObject({
      client_id: birch.accounting.clientId,
    });

    // A text to B's line reaches B's URL, from B's account; an accounting change in B's organisation too.
    await local.sms!.simulateInbound({ from: '13035550999', to: '13035550101', body: 'Hello B' });
    expect(local.sms!.webhooks.at(-1)?.account).toBe(birch.sms.apiKey);
    expect(posted.at(-1)).toBe(smsWebhookPath('birch'));
    const org = local.accounting!.tenants.find((o) => o.tenantName === 'birch Blinds')!.tenantId;
    const contactId = local.accounting!.addContact({ name: 'B Customer', tenantId: org });
    local.accounting!.editContact({ contactId, name: 'B Customer Renamed', tenantId: org });
    await local.accounting!.flushWebhooks();
    expect(posted.at(-1)).toBe('/acct/webhook/birch');
    await local.sms!.simulateInbound({ from: '13035550999', to: '13035550100', body: 'Hello default' });
    expect(posted.at(-1)).toBe('/sms/webhook/sms');
  });

  it('points a tenant created while running at the next pass, once it is set up; keeps what the user set', async () => {
    const local = running[0]!;
    const pointed = new Set(['default', 'birch']);
    await addTenant('cedar', 'provisioning');
    await addTenant('dune');
    // Dune's owner configured a real SMS provider and accounting app before the pass: they stay.
    await settings.setSmsConfig(
      ids['dune']!,
      smsConfigSchema.parse({
        api_key: 'real-key',
        api_secret: 'real-secret',
        webhook_base_url: 'https://erp.dune.example',
      }),
    );
    await settings.setAccountingConnection(
      ids['dune']!,
      accountingConnectionSchema.parse({
        name: 'Xero',
        client_id: 'REAL-CLIENT',
        client_secret: 'real-client-secret',
        redirect_uri: 'https://erp.dune.example/acct/callback',
        webhook_key: 'real-webhook-key-0123456789',
      }),
    );
    expect(await useLocalProviders(settings, t.db, local, erpUrl, port(), { pointed })).toEqual({ dune: ['chat'] });
    expect((await settings.smsSecrets(ids['dune']!))?.apiKey).toBe('real-key');
    expect(await settings.showAccountingConnection(ids['dune']!)).toMatchObject({ client_id: 'REAL-CLIENT' });

    await t.db.query(`UPDATE tenants SET status = 'active' WHERE slug = 'cedar'`);
    expect(await useLocalProviders(settings, t.db, local, erpUrl, port(), { pointed })).toEqual({
      cedar: ['sms', 'accounting', 'chat'],
    });
    expect(await lines('cedar')).toEqual(['13035550103']);
    expect(await useLocalProviders(settings, t.db, local, erpUrl, port(), { pointed })).toEqual({});
  });

  it('reports a tenant whose setting no longer opens and points the others', async () => {
    const local = running[0]!;
    await addTenant('elm');
    await addTenant('fir');
    // Elm's chat URL was sealed with a key this install no longer has.
    const lostKey = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
    await new IntegrationSettingsService(t.db, lostKey, (raw) => raw).setChatConfig(
      ids['elm']!,
      chatConfigSchema.parse({ webhook_url: 'https://chat.googleapis.com/v1/spaces/ELM/messages?key=k&token=t' }),
    );
    const pointed = new Set(['default', 'birch', 'cedar', 'dune']);
    await expect(
      useLocalProviders(settings, t.db, local, erpUrl, port(), { pointed: new Set(pointed) }),
    ).rejects.toThrow();
    const failed: string[] = [];
    const onFailure = (slug: string) => void failed.push(slug);
    expect(await useLocalProviders(settings, t.db, local, erpUrl, port(), { pointed, onFailure })).toEqual({
      fir: ['sms', 'accounting', 'chat'],
    });
    expect(failed).toEqual(['elm']);
    expect(await useLocalProviders(settings, t.db, local, erpUrl, port(), { pointed, onFailure })).toEqual({});
    expect(failed).toEqual(['elm']); // not again until the next start
  });

  it('keeps each tenant its accounts and line at the next start', async () => {
    const before = running[0]!.credentials.tenants!;
    await running[0]!.close();
    running.shift();
    const again = await start();
    expect(again.credentials.tenants).toEqual(before);
    const onFailure = () => undefined; // elm's lost key, above
    expect(await useLocalProviders(settings, t.db, again, erpUrl, port(), { onFailure })).toMatchObject({
      birch: ['sms', 'chat'],
      cedar: ['sms', 'chat'],
      dune: ['chat'],
    });
    expect(await lines('birch')).toEqual(['13035550101']);
    await again.sms!.simulateInbound({ from: '13035550999', to: '13035550101', body: 'Still B' });
    expect(posted.at(-1)).toBe(smsWebhookPath('birch'));
  });
});
