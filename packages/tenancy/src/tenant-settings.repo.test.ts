/** tenant_settings as the spec lists it: defaults, lengths and hex colours enforced by the database. */
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { getTenantSettings, setEmailSettings, upsertTenantSettings } from './tenant-settings.repo.js';

let t: TestDb;
let a: string;
let b: string;
beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  const ins = async (slug: string) =>
    (await t.db.query<{ id: string }>('INSERT INTO tenants (slug, name) VALUES ($1, $1) RETURNING id', [slug])).rows[0]!
      .id;
  a = await ins('a');
  b = await ins('b');
});
afterAll(async () => t?.drop());

describe('tenant_settings', () => {
  it('turns the helpdesk and the portal on by default and keeps email settings as a JSON object', async () => {
    await upsertTenantSettings(t.db, a, { company_name: 'Acme Blinds', primary_color: '#1F4E79' });
    const s = await getTenantSettings(t.db, a);
    expect(s).toMatchObject({
      company_name: 'Acme Blinds',
      primary_color: '#1F4E79',
      helpdesk_enabled: true,
      portal_enabled: true,
      email_settings: {},
    });
  });

  it('refuses colours that are not #RRGGBB and values longer than the spec allows', async () => {
    await expect(upsertTenantSettings(t.db, a, { primary_color: 'red' })).rejects.toThrow(/check constraint/);
    await expect(upsertTenantSettings(t.db, a, { secondary_color: '#12345' })).rejects.toThrow(/check constraint/);
    await expect(upsertTenantSettings(t.db, a, { company_name: 'x'.repeat(101) })).rejects.toThrow(/too long/);
    await expect(upsertTenantSettings(t.db, a, { phone: '1'.repeat(21) })).rejects.toThrow(/too long/);
  });

  it('gives a sending domain to one tenant only', async () => {
    const domain = {
      name: 'mail.shared.test',
      status: 'pending' as const,
      dkim_selector: 's',
      dkim_record: 'v=DKIM1',
      dkim_private_key_sealed: '',
      added_at: '',
    };
    await setEmailSettings(t.db, a, { domain });
    await expect(setEmailSettings(t.db, b, { domain: { ...domain, name: 'MAIL.shared.test' } })).rejects.toThrow(
      /unique|duplicate/,
    );
  });
});
