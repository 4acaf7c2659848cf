/**
 * `npm start` on embedded defaults points the default tenant's team chat at the local stand-in,
 * whose URL changes with each start; the flags the user set survive every restart.
 */
import { randomBytes } from 'node:crypto';

import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { chatConfigSchema, IntegrationSettingsService } from '@platform/integrations';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { ensureDefaultTenant } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { LocalProviders } from './local-providers.js';
import { useLocalProviders } from './local-settings.js';

let t: TestDb;
let tenant: string;
let box: ReturnType<typeof createSecretBox>;

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  tenant = (await ensureDefaultTenant(t.db, 'default')).id;
  box = createSecretBox(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
}, 120_000);
afterAll(() => t.drop());

/** The settings as one start of `npm start` builds them, allowing that start's stand-in origin. */
const settingsFor = (port: number) =>
  new IntegrationSettingsService(t.db, box, (raw) => raw.replace(/\D/g, ''), [`http://127.0.0.1:${port}`]);

/** A start of the stand-ins with only team chat, listening on `port` this time. */
const startOn = (port: number) =>
  ({
    credentials: {},
    sms: undefined,
    accounting: undefined,
    chat: { webhookUrl: () => `http://127.0.0.1:${port}/v1/spaces/LOCAL/messages?key=k&token=t` },
  }) as unknown as LocalProviders;

describe('team chat on the local stand-in across restarts', () => {
  it('turns every flag on at first start, then keeps the flags the user changed while the URL follows the stand-in', async () => {
    const first = settingsFor(41001);
    expect(await useLocalProviders(first, t.db, startOn(41001), 'http://127.0.0.1:8069', 8069)).toEqual({
      default: ['chat'],
    });
    expect(await first.showChatConfig(tenant)).toMatchObject({
      enable_fsm: true,
      enable_sales: true,
      enable_invoice: true,
      enable_po: true,
    });
    await first.setChatConfig(tenant, chatConfigSchema.parse({ enable_sales: false, enable_po: false }));

    const later = settingsFor(41002);
    await useLocalProviders(later, t.db, startOn(41002), 'http://127.0.0.1:8069', 8069);
    const after = await later.chatConfig(tenant);
    expect(after?.webhookUrl).toContain('127.0.0.1:41002');
    expect(after).toMatchObject({ enable_fsm: true, enable_sales: false, enable_invoice: true, enable_po: false });
  });
});
