/**
 * The must-shows of lead capture: a submission is accepted while the ERP is down and arrives once
 * when it returns; a process killed between commit and delivery loses nothing and duplicates nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadErpConfig } from '@platform/app-erp/erp.config.js';
import { startErp } from '@platform/app-erp/erp.server.js';
import { createTestDb, type TestDb } from '@platform/db';
import { createOdooErp, type Erp } from '@platform/erp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, httpOk, killSpawned, postForm, spawnPlatform, waitFor } from '../test/support/platform-harness.js';
import { type RunningPlatform, startPlatform } from './platform.js';

let dataDir: string;
/** The ERP runs with its own data directory: a PGlite directory belongs to one process. */
let erpDir: string;
let pg: TestDb | undefined;
let erpPort: number;
const dbEnv = (): Record<string, string> => (pg?.url ? { DATABASE_URL: pg.url } : {});
const startTheErp = () =>
  startErp(
    loadErpConfig({
      DATA_DIR: erpDir,
      ERP_PORT: String(erpPort),
      ERP_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ...dbEnv(),
    }),
  );
const erpKey = () => readFileSync(join(erpDir, 'erp-platform-api-key'), 'utf8').trim();
const erpClient = (): Erp =>
  createOdooErp({ url: `http://127.0.0.1:${erpPort}`, db: 'platform', login: 'admin', secret: erpKey() });
const leadsFor = async (email: string) =>
  (await erpClient().searchRead('crm.lead', [['email_from', '=', email]], { fields: ['name', 'tag_ids'] })).length;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'platform-durability-'));
  erpDir = mkdtempSync(join(tmpdir(), 'platform-durability-erp-'));
  if (process.env.TEST_DATABASE_URL) {
    pg = await createTestDb();
    await pg.db.close();
  }
  erpPort = await freePort();
  // First start creates the ERP database and the platform's API key; then the ERP goes down.
  await (await startTheErp()).close();
}, 180_000);
afterAll(async () => {
  killSpawned();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(erpDir, { recursive: true, force: true });
  if (pg) await pg.drop().catch(() => undefined);
});

const workerEnv = {
  OUTBOX_BASE_DELAY_MS: '100',
  OUTBOX_MAX_DELAY_MS: '1000',
  OUTBOX_POLL_MS: '100',
  SITE_NAME: 'Durable Blinds',
};

describe('with the ERP stopped', () => {
  let platform: RunningPlatform;
  afterAll(() => platform?.close());

  it('posts still answer 201, and when the ERP returns each arrives exactly once', async () => {
    platform = await startPlatform({
      DATA_DIR: dataDir,
      ERP_URL: `http://127.0.0.1:${erpPort}`,
      ERP_API_KEY: erpKey(),
      LANDING_PORT: '0',
      CONTROL_PORT: '0',
      FRONTEND_PORT: '0',
      LANDING_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ...workerEnv,
      ...dbEnv(),
    });
    const emails = ['down1@example.com', 'down2@example.com', 'down3@example.com'];
    for (const email of emails) {
      const r = await postForm(platform.landingUrl, '/api/estimate', 'estimate', {
        name: 'Down Time',
        email,
        form_source: 'faq_inline',
      });
      expect(r.status).toBe(201);
    }
    await new Promise((r) => setTimeout(r, 1500)); // several failed delivery attempts
    const erp = await startTheErp();
    try {
      for (const email of emails)
        await waitFor(`lead ${email}`, async () => ((await leadsFor(email)) > 0 ? true : undefined));
      await new Promise((r) => setTimeout(r, 1000)); // any duplicate delivery would land by now
      for (const email of emails) expect(await leadsFor(email)).toBe(1);
    } finally {
      await platform.close();
      await erp.close();
    }
  }, 180_000);
});

describe('a crash between commit and delivery', () => {
  it('kill -9 after the 201: after restart the lead arrives once', async () => {
    const landingPort = await freePort();
    const env = {
      DATA_DIR: dataDir,
      ERP_URL: `http://127.0.0.1:${erpPort}`,
      ERP_API_KEY: erpKey(),
      LANDING_PORT: String(landingPort),
      LANDING_HOST: '127.0.0.1',
      ...workerEnv,
      ...dbEnv(),
    };
    const landing = `http://127.0.0.1:${landingPort}`;
    const first = spawnPlatform(env);
    try {
      await waitFor('platform start', () => httpOk(`${landing}/health`), 120_000);
      const r = await postForm(landing, '/api/estimate', 'estimate', {
        name: 'Crash Test',
        email: 'crash@example.com',
        form_source: 'gallery_inline',
      });
      expect(r.status).toBe(201);
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
    }
    const erp = await startTheErp();
    const second = spawnPlatform(env);
    try {
      await waitFor(
        'lead after restart',
        async () => ((await leadsFor('crash@example.com')) > 0 ? true : undefined),
        120_000,
      );
      await new Promise((r) => setTimeout(r, 1000));
      expect(await leadsFor('crash@example.com')).toBe(1);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited, second.output()).toBe(0);
      await erp.close();
    }
  }, 300_000);
});
