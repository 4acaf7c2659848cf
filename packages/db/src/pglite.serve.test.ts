/**
 * A PGlite data directory owned by a running process is served to others (the CLIs while `npm start`
 * runs): their queries and transactions reach the same data without interleaving with the owner's.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPgliteDb } from './pglite.client.js';

const fixture = fileURLToPath(new URL('./pglite-owner.fixture.ts', import.meta.url));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pglite-served-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function startOwner(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`owner exited with ${code}: ${out}`)));
  });
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  return { child, ready, exited, output: () => out };
}

describe('a PGlite data directory open in another process', () => {
  it('is reached through the owner, and transactions on both sides never interleave', async () => {
    const owner = startOwner(join(dir, 'db'));
    try {
      await owner.ready;
      // A second service wanting to own the files is refused; a CLI is served.
      await expect(createPgliteDb({ dataDir: join(dir, 'db'), owner: true })).rejects.toThrow(
        `already open in process ${owner.child.pid}`,
      );
      const served = await createPgliteDb({ dataDir: join(dir, 'db') });
      expect(served.engine).toBe('pglite');
      const clientIncrements = 40;
      for (let i = 0; i < clientIncrements; i++) {
        await served.transaction(async (tx) => {
          const { rows } = await tx.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
          await new Promise((r) => setTimeout(r, 2));
          await tx.query('UPDATE counter SET n = $1 WHERE id = 1', [rows[0]!.n + 1]);
        });
      }
      // A transaction the client abandons by failing is rolled back, and the owner goes on.
      await expect(
        served.transaction(async (tx) => {
          await tx.query('UPDATE counter SET n = n + 1000 WHERE id = 1');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await served.close();
      owner.child.kill('SIGTERM');
      expect(await owner.exited).toBe(0);
      const ownerIncrements = Number(owner.output().trim().split('\n').pop());
      expect(ownerIncrements).toBeGreaterThan(0);
      // The owner is gone: the directory opens in this process, with every increment of both sides.
      expect(existsSync(join(dir, 'db.socket'))).toBe(false);
      const direct = await createPgliteDb({ dataDir: join(dir, 'db') });
      const { rows } = await direct.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
      expect(rows[0]!.n).toBe(ownerIncrements + clientIncrements);
      await direct.close();
    } finally {
      owner.child.kill('SIGKILL');
    }
  }, 120_000);
});
