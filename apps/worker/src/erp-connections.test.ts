/**
 * The worker delivers each tenant's work to that tenant's own ERP database with its own service
 * account (tenant_erp_routing), and a tenant without routing (the single-company install) to the
 * default connection; a routing changed by another process is picked up on the next delivery.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { TOPIC_ESTIMATE } from '@platform/contracts';
import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { startTestErp, type TestErp } from '@platform/erp-embedded/testing';
import { createLogger } from '@platform/http-kit';
import { ErpDatabases, getErpRouting, putErpRouting, TenantErps } from '@platform/tenancy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { estimatePayload } from '../test/support/payloads.js';
import { loadWorkerConfig, type WorkerConfig } from './config.js';
import { buildHandlers } from './deps.js';
import { workerTenantErps } from './erp-connections.js';
import { referenceMarker } from './features/leads/lead-mapping.js';
import { secretBoxFrom } from './secrets.js';

const MASTER = 'master-password-of-the-worker-tests';
let t: TestDb;
let server: TestErp;
let config: WorkerConfig;
let dataDir: string;
const ids: Record<string, string> = {};

const tenant = async (slug: string, isDefault = false) =>
  (
    await t.db.query<{ id: string }>(
      `INSERT INTO tenants (slug, name, status, is_default) VALUES ($1, $1, 'active', $2) RETURNING id`,
      [slug, isDefault],
    )
  ).rows[0]!.id;

beforeAll(async () => {
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  server = await startTestErp({ db: t.db, dbName: 'single_company', masterPassword: MASTER });
  dataDir = mkdtempSync(join(tmpdir(), 'worker-routing-'));
  config = loadWorkerConfig({
    DATA_DIR: dataDir,
    ERP_URL: server.url,
    ERP_DB: 'single_company',
    ERP_API_KEY: server.apiKey,
    SECRETS_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
  });
  const dbs = new ErpDatabases({ url: server.url, masterPassword: MASTER, timeoutMs: 30_000 });
  const box = secretBoxFrom(config);
  for (const slug of ['a', 'b']) {
    ids[slug] = await tenant(slug);
    await dbs.create(`t_${slug}`, `admin-pw-${slug}-0123456789`);
    const account = await dbs.createServiceAccount(`t_${slug}`, `admin-pw-${slug}-0123456789`, 'platform-service');
    await putErpRouting(t.db, box, {
      tenantId: ids[slug]!,
      kind: 'embedded',
      url: server.url,
      db: `t_${slug}`,
      login: account.login,
      apiKey: account.apiKey,
    });
  }
  ids.install = await tenant('install', true);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await t?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const deliver = async (tenantId: string) => {
  const handlers = buildHandlers(config, t.db, createLogger('silent'), workerTenantErps(config, t.db), () => {});
  const payload = estimatePayload();
  await handlers[TOPIC_ESTIMATE]!({
    id: 1,
    tenant_id: tenantId,
    topic: TOPIC_ESTIMATE,
    payload,
  } as never);
  return payload.submissionId;
};
/** Leads of a submission in a tenant's ERP database, looked up with that tenant's own account. */
const leadsIn = async (slug: string, submissionId: string) => {
  const erp = await new TenantErps(t.db, secretBoxFrom(config), config).forTenant(ids[slug]!);
  return erp.searchCount('crm.lead', [['description', 'ilike', referenceMarker(submissionId)]]);
};

describe("the worker's ERP per tenant", { timeout: 120_000 }, () => {
  it("delivers tenant A's estimate to A's database only", async () => {
    const s = await deliver(ids.a!);
    expect(await leadsIn('a', s)).toBe(1);
    expect(await leadsIn('b', s)).toBe(0);
    expect(await leadsIn('install', s)).toBe(0);
  });

  it('delivers the single-company tenant (no routing) to the default ERP database', async () => {
    const s = await deliver(ids.install!);
    expect(await leadsIn('install', s)).toBe(1);
    expect(await leadsIn('a', s)).toBe(0);
  });

  it('follows a routing changed elsewhere at the next delivery', async () => {
    const erps = workerTenantErps(config, t.db);
    expect((await erps.targetOf(ids.b!)).db).toBe('t_b');
    const routingA = await getErpRouting(t.db, secretBoxFrom(config), ids.a!);
    // Another process points B at A's database and service account.
    await putErpRouting(t.db, secretBoxFrom(config), { ...routingA!, tenantId: ids.b! });
    expect((await erps.targetOf(ids.b!)).db).toBe('t_a');
  });
});
