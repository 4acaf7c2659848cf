import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPgliteDb, type Db, migratePlatform } from '@platform/db';
import { parseKeyring } from '@platform/secrets';
import { createLocalObjectStore } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startBackupSchedule } from './backup.schedule.js';
import { BackupService } from './backup.service.js';
import { pgliteDump } from './database-dump.js';

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'backup-schedule-'));
  db = await createPgliteDb();
  await migratePlatform(db);
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('takes a backup when none is recent, skips while one is, and prunes by the retention policy', async () => {
  let clock = Date.parse('2026-11-02T03:00:00Z');
  const service = new BackupService({
    databases: [pgliteDump('platform', db)],
    objects: createLocalObjectStore({ root: join(dir, 'objects') }),
    target: createLocalObjectStore({ root: join(dir, 'backups') }),
    keyring: parseKeyring(`k1:${randomBytes(32).toString('base64')}`),
    now: () => new Date(clock),
  });
  const logs: string[] = [];
  const schedule = startBackupSchedule({
    service,
    intervalH: 24,
    policy: { daily: 2, weekly: 0 },
    logger: { info: (_o, m) => logs.push(m), error: (_o, m) => logs.push(m) },
    now: () => clock,
    firstCheckMs: 3_600_000,
  });
  try {
    expect(await schedule.tick()).toBe('ran');
    clock += 3_600_000;
    expect(await schedule.tick()).toBe('not-due');
    for (let day = 1; day <= 3; day++) {
      clock += 24 * 3_600_000;
      expect(await schedule.tick()).toBe('ran');
    }
    // Four daily backups taken, two kept.
    expect((await service.list()).map((b) => b.createdAt.slice(0, 10))).toEqual(['2026-11-05', '2026-11-04']);
    expect(logs.filter((l) => l === 'backup taken')).toHaveLength(4);
  } finally {
    await schedule.close();
  }
}, 120_000);

describe.skipIf(!process.env.TEST_DATABASE_URL)('backup schedule on PostgreSQL', () => {
  it('lets one of two worker replicas take the backup when both check at once', async () => {
    const { createTestDb } = await import('@platform/db');
    const { pgDump } = await import('./database-dump.js');
    const t = await createTestDb(process.env, { migrated: true });
    try {
      await migratePlatform(t.db);
      const target = createLocalObjectStore({ root: join(dir, 'pg-backups') });
      const replica = () =>
        startBackupSchedule({
          service: new BackupService({
            databases: [pgDump(t.url!)],
            objects: createLocalObjectStore({ root: join(dir, 'pg-objects') }),
            target,
            keyring: parseKeyring(`k1:${randomBytes(32).toString('base64')}`),
          }),
          intervalH: 24,
          policy: { daily: 7, weekly: 4 },
          db: t.db,
          logger: { info: () => {}, error: () => {} },
          firstCheckMs: 3_600_000,
        });
      const [a, b] = [replica(), replica()];
      const outcomes = await Promise.all([a.tick(), b.tick()]);
      // The other one found the lock taken ('busy') or, if it came after, the fresh backup ('not-due').
      expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
      expect((await target.list('backups/')).filter((o) => o.key.endsWith('manifest.json'))).toHaveLength(1);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await t.drop();
    }
  }, 120_000);
});
