/**
 * The seeded data directory a browser run shares (real-platform.ts): built once, by the first file
 * that needs it, under the run's seed directory; later files copy it. Built aside and renamed into
 * place, with a lock directory, so a second process waits for the first instead of building twice
 * or copying half a directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const BUILD_WAIT_MS = 180_000;

export async function seededDataDir<P>(
  seedDir: string,
  build: (dataDir: string) => Promise<P>,
): Promise<{ dataDir: string; people: P }> {
  const ready = join(seedDir, 'ready');
  const read = () => ({
    dataDir: join(ready, 'data'),
    people: JSON.parse(readFileSync(join(ready, 'people.json'), 'utf8')) as P,
  });
  if (existsSync(ready)) return read();
  mkdirSync(seedDir, { recursive: true });
  try {
    mkdirSync(join(seedDir, 'lock'));
  } catch {
    // Another process is building it.
    const end = Date.now() + BUILD_WAIT_MS;
    while (!existsSync(ready)) {
      if (Date.now() > end) throw new Error('timed out waiting for the seeded data directory');
      await new Promise((r) => setTimeout(r, 250));
    }
    return read();
  }
  const staging = mkdtempSync(join(seedDir, 'building-'));
  try {
    const people = await build(join(staging, 'data'));
    writeFileSync(join(staging, 'people.json'), JSON.stringify(people));
    renameSync(staging, ready);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(join(seedDir, 'lock'), { recursive: true, force: true });
  }
  return read();
}

/**
 * A free port under Linux's ephemeral range (32768 and up), where outgoing connections and port-0
 * listeners never land: the seed's ERP port stays free for the copies started after it.
 */
export async function freePortBelowEphemeral(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
