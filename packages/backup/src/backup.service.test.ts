import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parseKeyring } from '@platform/secrets';
import { createLocalObjectStore, readAll } from '@platform/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BackupService } from './backup.service.js';
import { pgDump } from './database-dump.js';

let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'backup-service-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const keyring = parseKeyring(`k1:${randomBytes(32).toString('base64')}`);

describe('backup service', () => {
  it('lists no backup when a dump fails half-way (no manifest is written)', async () => {
    const target = createLocalObjectStore({ root: join(dir, 'failed-target') });
    const service = new BackupService({
      // Nothing listens on port 1: pg_dump exits non-zero.
      databases: [pgDump('postgres://postgres@127.0.0.1:1/nothing')],
      objects: createLocalObjectStore({ root: join(dir, 'objects') }),
      target,
      keyring,
    });
    await expect(service.run()).rejects.toThrow(/pg_dump failed/);
    expect(await service.list()).toEqual([]);
    expect((await target.list()).some((o) => o.key.endsWith('manifest.json'))).toBe(false);
  });

  it('stores objects encrypted and names each by its key in the manifest', async () => {
    const objects = createLocalObjectStore({ root: join(dir, 'objects2') });
    await objects.put('t1/photos/kitchen.jpg', 'kitchen-window-photo');
    const target = createLocalObjectStore({ root: join(dir, 'target2') });
    const m = await new BackupService({ databases: [], objects, target, keyring }).run();
    expect(m.objects).toEqual([{ key: 't1/photos/kitchen.jpg', size: 20, part: 'objects/000000.enc' }]);
    const stored = await readAll(await target.get(`backups/${m.id}/objects/000000.enc`));
    expect(stored.includes(Buffer.from('kitchen-window-photo'))).toBe(false);
    await expect(new BackupService({ databases: [], objects, target, keyring }).manifest('../../etc')).rejects.toThrow(
      /not a backup id/,
    );
  });
});
