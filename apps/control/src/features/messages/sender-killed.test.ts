/**
 * The kill drill of customer messages (issue 29): a sender process claims the due messages, queues
 * their texts and is killed with SIGKILL before its commit. Meanwhile a second sender finds the rows
 * locked and takes none (SKIP LOCKED); once the killed one's transaction is gone, it sends each
 * message once. Two processes on one database: PostgreSQL (TEST_DATABASE_URL) only.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { createTestDb, migratePlatform, type TestDb } from '@platform/db';
import { EmailOutboxService } from '@platform/email';
import { systemClock } from '@platform/kernel';
import { normalizeSmsPhone } from '@platform/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { quotesFirstOpened } from '../portal/portal-links.js';
import { MessageScheduler } from './message-scheduler.js';
import { MessageSender } from './message-sender.js';
import { jobFacts, LINE, middayZone } from './messages.test-support.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const fixture = fileURLToPath(new URL('./sender-killed.fixture.ts', import.meta.url));
let t: TestDb;
let tenant: string;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestDb(process.env, { migrated: true });
  await migratePlatform(t.db);
  tenant = (
    await t.db.query<{ id: string }>(`INSERT INTO tenants (slug, name) VALUES ('kill', 'Kill Drill') RETURNING id`)
  ).rows[0]!.id;
  // Midday in the tenant's zone: quiet hours never hold the drill's texts.
  await t.db.query(`INSERT INTO tenant_settings (tenant_id, time_zone) VALUES ($1, $2)`, [tenant, middayZone()]);
});
afterAll(async () => t?.drop());

const texts = async () =>
  Number(
    (await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM sms_messages WHERE tenant_id = $1`, [tenant])).rows[0]!
      .n,
  );

describe.skipIf(!onPostgres)('a sender killed between its claim and its commit', () => {
  it('sends nothing itself, leaves nothing to a second sender while it holds the rows, and each is sent once after', async () => {
    const scheduler = new MessageScheduler(systemClock, (raw) => normalizeSmsPhone(raw, 'US'));
    const start = new Date(Date.now() + 5 * 86_400_000).toISOString();
    for (let i = 1; i <= 3; i++)
      await t.db.transaction((tx) =>
        scheduler.jobScheduled(tx, tenant, jobFacts({ jobId: `00000000-0000-4000-8000-00000000000${i}`, start })),
      );
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, t.url!, tenant, LINE], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('claimed') && resolve());
      child.on('exit', (code) => reject(new Error(`the sender exited with ${code} before claiming`)));
    });
    const sender = new MessageSender({
      db: t.db,
      clock: systemClock,
      erps: { forTenant: () => Promise.reject(new Error('no chatter here')) },
      email: new EmailOutboxService(t.db, { domain: 'platform.test', fromName: 'Platform' }),
      lineOf: async () => LINE,
      quotesOpened: quotesFirstOpened,
    });
    // The rows are the killed one's until its transaction ends: the second sender takes none.
    expect(await sender.runTenant(tenant)).toBe(0);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    let sent = 0;
    for (let i = 0; i < 50 && sent < 3; i++) {
      sent += await sender.runTenant(tenant);
      if (sent < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sent).toBe(3);
    expect(await texts()).toBe(3);
    expect(await sender.runTenant(tenant)).toBe(0);
    expect(await texts()).toBe(3);
  }, 60_000);
});
