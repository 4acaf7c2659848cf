/**
 * Backups: every database dump and every stored object, each encrypted (backup-cipher.ts), written to
 * a separate store under `backups/<id>/`; the manifest is written last, so a backup without one is
 * incomplete (a crash mid-way) and is never listed or restored. Restores write each part to a
 * temporary file first and apply it only after its integrity tag checked out.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { Keyring } from '@platform/secrets';
import { type ObjectStore, readAll } from '@platform/storage';

import { decryptStream, encryptStream } from './backup-cipher.js';
import type { DatabaseDump } from './database-dump.js';
import { expiredBackups, type RetentionPolicy } from './retention.js';

export interface BackupManifest {
  id: string;
  createdAt: string;
  keyId: string;
  databases: { name: string; format: DatabaseDump['format']; part: string }[];
  objects: { key: string; size: number; part: string }[];
}

export interface BackupDeps {
  /** What to dump: pg_dump of DATABASE_URL, or each open PGlite directory. */
  databases: DatabaseDump[];
  /** The tenants' object store (photos, signatures). */
  objects: ObjectStore;
  /** The separate store the backups go to. */
  target: ObjectStore;
  keyring: Keyring;
  now?: () => Date;
}

/** How a restore puts a database back: given the decrypted part's file. */
export type DatabaseRestorer = (db: BackupManifest['databases'][number], file: string) => Promise<void>;

const ROOT = 'backups/';

export class BackupService {
  constructor(private readonly d: BackupDeps) {}

  async run(): Promise<BackupManifest> {
    const now = (this.d.now ?? (() => new Date()))();
    const id = `${now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
    const manifest: BackupManifest = {
      id,
      createdAt: now.toISOString(),
      keyId: this.d.keyring.activeKeyId,
      databases: [],
      objects: [],
    };
    for (const db of this.d.databases) {
      const part = `db/${db.name}.enc`;
      await this.putEncrypted(id, part, await db.dump());
      manifest.databases.push({ name: db.name, format: db.format, part });
    }
    for (const [i, o] of (await this.d.objects.list()).entries()) {
      const part = `objects/${String(i).padStart(6, '0')}.enc`;
      await this.putEncrypted(id, part, await this.d.objects.get(o.key));
      manifest.objects.push({ key: o.key, size: o.size, part });
    }
    await this.d.target.put(`${ROOT}${id}/manifest.json`, JSON.stringify(manifest, null, 1), {
      contentType: 'application/json',
    });
    return manifest;
  }

  /** Complete backups, newest first. */
  async list(): Promise<BackupManifest[]> {
    const keys = (await this.d.target.list(ROOT)).filter((o) => o.key.endsWith('/manifest.json'));
    const out = await Promise.all(
      keys.map(async (k) => JSON.parse((await readAll(await this.d.target.get(k.key))).toString()) as BackupManifest),
    );
    return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  }

  async manifest(id: string): Promise<BackupManifest> {
    if (!/^[0-9TZ]+-[0-9a-f]{6}$/.test(id))
      throw new Error(`"${id}" is not a backup id (see \`npm run backup -- list\`)`);
    const all = await this.list();
    const m = all.find((b) => b.id === id);
    if (!m) throw new Error(`no complete backup ${id} (see \`npm run backup -- list\`)`);
    return m;
  }

  /**
   * Puts everything back: objects into the object store, each database through `restoreDb`. Every
   * part is decrypted and verified before any database is touched.
   */
  async restore(id: string, restoreDb: DatabaseRestorer): Promise<BackupManifest> {
    const m = await this.manifest(id);
    const dir = await mkdtemp(join(tmpdir(), 'restore-'));
    try {
      const files = new Map<string, string>();
      for (const db of m.databases) {
        const file = join(dir, `${db.name}.dump`);
        await pipeline(
          await this.d.target.get(`${ROOT}${id}/${db.part}`),
          decryptStream(this.d.keyring),
          createWriteStream(file, { mode: 0o600 }),
        );
        files.set(db.name, file);
      }
      for (const db of m.databases) await restoreDb(db, files.get(db.name)!);
      for (const o of m.objects) {
        const file = join(dir, 'object');
        await pipeline(
          await this.d.target.get(`${ROOT}${id}/${o.part}`),
          decryptStream(this.d.keyring),
          createWriteStream(file, { mode: 0o600 }),
        );
        await this.d.objects.put(o.key, createReadStream(file));
      }
      return m;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Deletes the backups the policy no longer keeps; returns their ids. */
  async prune(policy: RetentionPolicy): Promise<string[]> {
    const expired = expiredBackups(await this.list(), policy);
    for (const id of expired) {
      // Manifest first: a half-deleted backup is then an incomplete one, never a corrupt "complete" one.
      await this.d.target.delete(`${ROOT}${id}/manifest.json`);
      for (const o of await this.d.target.list(`${ROOT}${id}/`)) await this.d.target.delete(o.key);
    }
    return expired;
  }

  private async putEncrypted(id: string, part: string, body: NodeJS.ReadableStream): Promise<void> {
    const enc = encryptStream(this.d.keyring);
    const done = pipeline(body, enc);
    // A failed upload must not leave the dump (pg_dump's pipe) waiting for a reader.
    const put = this.d.target.put(`${ROOT}${id}/${part}`, enc).catch((e: unknown) => {
      enc.destroy(e as Error);
      throw e;
    });
    await Promise.all([put, done]);
  }
}
