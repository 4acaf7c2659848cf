/**
 * The restore drill: seed a tenant, ERP leads, a field-service job and two stored objects (a photo and
 * a signature); back up to a separate S3-API store; destroy the databases and the objects; restore;
 * find everything again. On PGlite by default, on PostgreSQL (pg_dump/pg_restore) with TEST_DATABASE_URL.
 * Run under umask 000: what the restore writes (databases, objects) is still owner-only.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPgliteDb, createTestDb, type Db, migratePlatform, type TestDb, withDatabase } from '@platform/db';
import { EmbeddedErp } from '@platform/erp-embedded';
import { createLocalObjectStore, createS3ObjectStore, readAll } from '@platform/storage';
import { adaptClientToS3rver, startTestS3, type TestS3 } from '@platform/storage/test-support/s3-server.js';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { composeBackups, databaseRestorer, loadBackupConfig } from './index.js';

const PG = process.env.TEST_DATABASE_URL;
let s3: TestS3;
let dataDir: string;
let testDb: TestDb | undefined;
let umaskBefore: number;
beforeAll(async () => {
  umaskBefore = process.umask(0);
  s3 = await startTestS3(['platform-backups']);
  dataDir = mkdtempSync(join(tmpdir(), 'drill-'));
});
afterAll(async () => {
  process.umask(umaskBefore);
  await testDb?.drop();
  await s3?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Entries under `root` readable or writable by anyone but the owner (sockets and links aside). */
function looseEntries(root: string): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    const st = lstatSync(p);
    if (!st.isDirectory() && !st.isFile()) return;
    if (st.mode & 0o077) out.push(`${(st.mode & 0o777).toString(8)} ${p}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(join(p, n));
  };
  visit(root);
  return out;
}

const PHOTO = randomBytes(200_000);
const SIGNATURE = Buffer.from('<svg><path d="M0 0 L10 10"/></svg>');

async function openDatabases(): Promise<{ platform: Db; erp: Db; close(): Promise<void> }> {
  if (testDb) {
    const db = (await import('@platform/db')).createPgDb({ url: testDb.url!, max: 3 });
    return { platform: db, erp: db, close: () => db.close() };
  }
  const platform = await createPgliteDb({ dataDir: join(dataDir, 'platform') });
  const erp = await createPgliteDb({ dataDir: join(dataDir, 'erp') });
  return { platform, erp, close: async () => (await platform.close(), await erp.close()) };
}

async function destroyEverything(): Promise<void> {
  rmSync(join(dataDir, 'objects'), { recursive: true, force: true });
  if (!testDb) {
    rmSync(join(dataDir, 'platform'), { recursive: true, force: true });
    rmSync(join(dataDir, 'erp'), { recursive: true, force: true });
    return;
  }
  // Lose the whole PostgreSQL database, then start from an empty one of the same name.
  const name = new URL(testDb.url!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: withDatabase(PG!, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
}

it(`finds every lead, job, photo and signature again after backup, destruction and restore (${PG ? 'PostgreSQL' : 'PGlite'})`, async () => {
  if (PG) {
    testDb = await createTestDb();
    await testDb.db.close();
  }
  const env = {
    DATA_DIR: dataDir,
    ...(testDb ? { DATABASE_URL: testDb.url } : {}),
    BACKUP_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
  };
  const config = loadBackupConfig(env);
  const target = createS3ObjectStore({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
  });
  adaptClientToS3rver(target.client);
  const objects = () => createLocalObjectStore({ root: join(dataDir, 'objects') });

  // Seed.
  let dbs = await openDatabases();
  await migratePlatform(dbs.platform);
  await dbs.platform.query(`INSERT INTO tenants (slug, name, is_default) VALUES ('acme', 'Acme Blinds', true)`);
  const erp = new EmbeddedErp(dbs.erp);
  await erp.createDatabase('acme', { adminPassword: 'pw' });
  const x = (model: string, method: string, args: unknown[]) =>
    erp.executeKw('acme', 2, 'pw', model, method, args, {}) as Promise<any>;
  await x('crm.lead', 'create', [{ name: 'Shutters for the bay window', email_from: 'jane@example.com' }]);
  await x('crm.lead', 'create', [{ name: 'Roller blinds, 4 rooms', email_from: 'sam@example.com' }]);
  const location = await x('fsm.location', 'create', [{ name: '12 Elm St' }]);
  await x('fsm.order', 'create', [{ location_id: location, description: 'Install 4 roller blinds' }]);
  await objects().put('acme/photos/job-1.jpg', PHOTO);
  await objects().put('acme/signatures/job-1.svg', SIGNATURE);

  // Back up (the process that owns the PGlite files takes the dump), then lose everything.
  const manifest = await composeBackups(config, testDb ? {} : { platform: dbs.platform, erp: dbs.erp }, {
    objects: objects(),
    target,
  }).run();
  expect(manifest.objects.map((o) => o.key)).toEqual(['acme/photos/job-1.jpg', 'acme/signatures/job-1.svg']);
  const stored = await target.list('backups/');
  expect(stored.every((o) => o.key.endsWith('manifest.json') || !(o.size === PHOTO.length))).toBe(true); // parts are not plaintext copies
  await dbs.close();
  await destroyEverything();

  // Restore from the list, as an operator would.
  const service = composeBackups(config, {}, { objects: objects(), target });
  expect((await service.list()).map((b) => b.id)).toEqual([manifest.id]);
  await service.restore(manifest.id, databaseRestorer(config));
  expect(looseEntries(dataDir)).toEqual([]);

  dbs = await openDatabases();
  try {
    const erp2 = new EmbeddedErp(dbs.erp);
    const y = (model: string, method: string, args: unknown[], kw = {}) =>
      erp2.executeKw('acme', 2, 'pw', model, method, args, kw) as Promise<any>;
    expect(
      (await y('crm.lead', 'search_read', [[]], { fields: ['name', 'email_from'], order: 'id' })).map((l: any) => [
        l.name,
        l.email_from,
      ]),
    ).toEqual([
      ['Shutters for the bay window', 'jane@example.com'],
      ['Roller blinds, 4 rooms', 'sam@example.com'],
    ]);
    expect(
      (await y('fsm.order', 'search_read', [[]], { fields: ['description', 'location_id'] })).map((o: any) => [
        o.description,
        o.location_id[1],
      ]),
    ).toEqual([['Install 4 roller blinds', '12 Elm St']]);
    expect((await dbs.platform.query<{ name: string }>(`SELECT name FROM tenants WHERE slug = 'acme'`)).rows).toEqual([
      { name: 'Acme Blinds' },
    ]);
    expect((await readAll(await objects().get('acme/photos/job-1.jpg'))).equals(PHOTO)).toBe(true);
    expect((await readAll(await objects().get('acme/signatures/job-1.svg'))).equals(SIGNATURE)).toBe(true);
  } finally {
    await dbs.close();
  }
}, 180_000);
