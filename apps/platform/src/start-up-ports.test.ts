/**
 * One busy port stops `npm start` with a sentence naming the variable that sets it, exit 1, no stack,
 * before anything is opened (no database, nothing listening); the same sentence names a listen
 * failure that happens later (another process taking the port between the check and the listen).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { assertPortsFree, namedPortError, onNamedPort } from '@platform/http-kit';
import { ConfigError } from '@platform/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, spawnPlatform } from '../test/support/platform-harness.js';

let busy: Server;
let busyPort: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => busy.close(() => r())));

const canListen = async (port: number) => {
  try {
    await assertPortsFree([{ variable: 'X', host: '127.0.0.1', port }]);
    return true;
  } catch {
    return false;
  }
};

describe('npm start with a busy port', () => {
  it('exits 1 naming WORKER_METRICS_PORT, no stack, nothing opened or left listening', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'platform-port-')), 'data');
    const [landing, erp] = [await freePort(), await freePort()];
    try {
      const p = spawnPlatform({
        DATA_DIR: dataDir,
        LANDING_PORT: String(landing),
        ERP_PORT: String(erp),
        WORKER_METRICS_PORT: String(busyPort),
      });
      expect(await p.exited).toBe(1);
      expect(p.output()).toContain(
        `WORKER_METRICS_PORT ${busyPort} is in use on 127.0.0.1; set WORKER_METRICS_PORT to a free port or 0`,
      );
      expect(p.output()).not.toMatch(/EADDRINUSE|at .*\.ts:\d+/);
      expect(existsSync(join(dataDir, 'platform'))).toBe(false); // no database was opened
      expect(await canListen(landing)).toBe(true);
      expect(await canListen(erp)).toBe(true);
    } finally {
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    }
  }, 60_000);
});

describe('named ports', () => {
  it('lists every busy port in one message, and skips port 0', async () => {
    const other = createServer();
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherPort = (other.address() as { port: number }).port;
    try {
      const err = await assertPortsFree([
        { variable: 'LANDING_PORT', host: '127.0.0.1', port: busyPort },
        { variable: 'LOCAL_PROVIDERS_PORT', host: '127.0.0.1', port: 0 },
        { variable: 'DOCS_PORT', host: '127.0.0.1', port: otherPort },
      ]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(`LANDING_PORT ${busyPort} is in use on 127.0.0.1`);
      expect((err as Error).message).toContain(`DOCS_PORT ${otherPort} is in use on 127.0.0.1`);
      expect((err as Error).message).not.toContain('LOCAL_PROVIDERS_PORT');
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it('refuses two variables given the same port', async () => {
    const port = await freePort();
    await expect(
      assertPortsFree([
        { variable: 'LANDING_PORT', host: '127.0.0.1', port },
        { variable: 'LOCAL_PROVIDERS_PORT', host: '127.0.0.1', port },
      ]),
    ).rejects.toThrow(`LANDING_PORT and LOCAL_PROVIDERS_PORT share port ${port}; give each its own port (or 0)`);
  });

  it("names a listen failure on the port, and leaves another listener's failure alone", async () => {
    const p = { variable: 'CONTROL_PORT', host: '127.0.0.1', port: busyPort };
    const listen = () =>
      new Promise<void>((resolve, reject) => {
        const s = createServer();
        s.once('error', reject);
        s.listen(busyPort, '127.0.0.1', () => resolve());
      });
    await expect(onNamedPort(p, listen)).rejects.toThrow(
      `CONTROL_PORT ${busyPort} is in use on 127.0.0.1; set CONTROL_PORT to a free port or 0`,
    );
    const elsewhere = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', port: busyPort + 1 });
    expect(namedPortError(p, elsewhere)).toBeUndefined();
    const denied = Object.assign(new Error('listen EACCES'), { code: 'EACCES', port: busyPort });
    expect(namedPortError(p, denied)?.message).toMatch(/permission denied/);
  });
});
