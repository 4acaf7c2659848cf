/**
 * An install of the single-company platform, migrated from before the control plane (migration
 * 0100), keeps all its data and becomes the default tenant: active, on the enterprise plan, without
 * ERP routing (its ERP stays the default connection), its rows visible in its own scope only.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createTestDb, migrate, migratePlatform, PLATFORM_MIGRATIONS_DIR, type TestDb, withTenant } from '@platform/db';
import { createSecretBox, parseKeyring } from '@platform/secrets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { TenantErps } from './erp/tenant-erps.js';
import { getTenantSettings } from './tenant-settings.repo.js';

let t: TestDb;
let oldDir: string;
let tenantId: string;

beforeAll(async () => {
  t = await createTestDb();
  // The migrations an install had before the control plane.
  oldDir = mkdtempSync(join(tmpdir(), 'pre-0100-'));
  for (const f of readdirSync(PLATFORM_MIGRATIONS_DIR).filter((n) => /^\d{4}_/.test(n) && Number(n.slice(0, 4)) < 100))
    cpSync(join(PLATFORM_MIGRATIONS_DIR, f), join(oldDir, f));
  await migrate(t.db, { dir: oldDir, owner: 'platform' });
  // As the single-company platform made it on first start.
  tenantId = (
    await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, is_default) VALUES ('default', 'Acme Blinds', true) RETURNING id`,
    )
  ).rows[0]!.id;
  await t.db.query(
    `INSERT INTO submissions (id, tenant_id, kind, payload, fingerprint) VALUES (gen_random_uuid(), $1, 'estimate', '{"name":"Jane"}', 'fp1'),
       (gen_random_uuid(), $1, 'helpdesk', '{"name":"Joe"}', 'fp2')`,
    [tenantId],
  );
  await t.db.query(`INSERT INTO chat_configs (tenant_id, webhook_url_enc) VALUES ($1, 'v1.sealed')`, [tenantId]);
  await t.db.query(
    `INSERT INTO tenant_settings (tenant_id, company_name, primary_color) VALUES ($1, 'Acme', '#112233')`,
    [tenantId],
  );
  // Now the upgrade: every migration since.
  await migratePlatform(t.db);
}, 120_000);
afterAll(async () => {
  await t?.drop();
  rmSync(oldDir, { recursive: true, force: true });
});

describe('the single-company install after the upgrade', () => {
  it('is the default tenant, active, on the enterprise plan', async () => {
    const r = await t.db.query('SELECT id, is_default, status, plan FROM tenants');
    expect(r.rows).toEqual([{ id: tenantId, is_default: true, status: 'active', plan: 'enterprise' }]);
  });

  it('keeps its submissions, integration settings and tenant settings, visible in its own scope only', async () => {
    const mine = await withTenant(t.db, tenantId, async (tx) => ({
      submissions: (await tx.query('SELECT kind FROM submissions ORDER BY kind')).rows,
      chat: (await tx.query('SELECT webhook_url_enc FROM chat_configs')).rows,
      settings: await getTenantSettings(tx, tenantId),
    }));
    expect(mine.submissions).toEqual([{ kind: 'estimate' }, { kind: 'helpdesk' }]);
    expect(mine.chat).toEqual([{ webhook_url_enc: 'v1.sealed' }]);
    expect(mine.settings).toMatchObject({ company_name: 'Acme', primary_color: '#112233', helpdesk_enabled: true });
    const other = (
      await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('other', 'Other') RETURNING id`)
    ).rows[0]!.id;
    expect(await withTenant(t.db, other, (tx) => tx.query('SELECT 1 FROM submissions'))).toMatchObject({ rowCount: 0 });
  });

  it('keeps using the default ERP connection (no routing row)', async () => {
    const box = createSecretBox(parseKeyring(`k1:${Buffer.alloc(32, 7).toString('base64')}`));
    const erps = new TenantErps(t.db, box, {
      ERP_URL: 'http://erp.test:8069',
      ERP_DB: 'platform',
      ERP_LOGIN: 'admin',
      ERP_API_KEY: 'a'.repeat(40),
      ERP_TIMEOUT_MS: 1000,
      DATA_DIR: '/nonexistent',
    });
    expect(await erps.targetOf(tenantId)).toEqual({
      url: 'http://erp.test:8069',
      db: 'platform',
      login: 'admin',
      routed: false,
    });
  });
});
