/**
 * On PGlite the data directories belong to the running platform: `npm run backup -- now` and
 * `restore` must refuse with a clear message while another process owns them, and restore must not
 * move the live directory aside (a plain open would be served by the owner and pass the check).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { databaseRestorer, loadBackupConfig, openPgliteDatabases } from './index.js';

// The db package's owner fixture: holds a PGlite directory (and serves it) until SIGTERM.
const fixture = fileURLToPath(new URL('../../db/src/pglite-owner.fixture.ts', import.meta.url));
let dataDir: string;
let owner: ReturnType<typeof spawn>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'backup-busy-'));
  owner = spawn(process.execPath, ['--import', 'tsx', fixture, join(dataDir, 'platform')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    owner.stdout!.on('data', (d: Buffer) => ((out += d.toString()), out.includes('ready\n') && resolve()));
    owner.once('exit', (code) => reject(new Error(`owner exited with ${code}: ${out}`)));
  });
}, 60_000);

afterAll(async () => {
  if (owner.exitCode === null) {
    const exited = new Promise((r) => owner.once('exit', r));
    owner.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const config = () => loadBackupConfig({ DATA_DIR: dataDir });

it('`now` refuses while another process owns the data directory, naming it', async () => {
  await expect(openPgliteDatabases(config())).rejects.toThrow(
    `already open in process ${owner.pid}; one process at a time (stop it first`,
  );
});

it('`restore` refuses while another process owns the data directory, and leaves it in place', async () => {
  const restore = databaseRestorer(config());
  await expect(
    restore({ name: 'platform', format: 'pglite-datadir-tar', part: 'db/platform.enc' }, join(dataDir, 'unused.tar')),
  ).rejects.toThrow(`already open in process ${owner.pid}`);
  expect(readdirSync(dataDir).filter((f) => f.includes('before-restore'))).toEqual([]);
  expect(existsSync(join(dataDir, 'platform', 'platform.owner'))).toBe(true);
});
