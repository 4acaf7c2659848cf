/**
 * DATA_DIR is owner-only: `npm start` under umask 000 on a fresh directory that also holds an older,
 * looser install's files makes everything 0700 (directories) / 0600 (files), says how many entries it
 * tightened in one log line, and leaves nothing loose after a clean stop either.
 */
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { freePort, httpOk, ROOT, waitFor } from '../test/support/platform-harness.js';
import { tightenDataDir, tightenedMessage } from './data-dir.js';

const base = mkdtempSync(join(tmpdir(), 'platform-modes-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function looseEntries(root: string): string[] {
  const out: string[] = [];
  const visit = (p: string) => {
    const st = lstatSync(p);
    if (!st.isDirectory() && !st.isFile()) return; // the PGlite sockets: their directory is 0700
    if (st.mode & 0o077) out.push(`${(st.mode & 0o777).toString(8)} ${p}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(join(p, n));
  };
  visit(root);
  return out;
}

it('npm start under umask 000 leaves DATA_DIR owner-only and tightens an old loose install', async () => {
  const dataDir = join(base, 'data');
  // An older install's leftovers, as loose as PGlite and the object store used to leave them.
  mkdirSync(join(dataDir, 'objects', 'acme'), { recursive: true });
  writeFileSync(join(dataDir, 'objects', 'acme', 'photo.jpg'), 'jpeg');
  chmodSync(join(dataDir, 'objects', 'acme', 'photo.jpg'), 0o644);
  for (const d of [dataDir, join(dataDir, 'objects'), join(dataDir, 'objects', 'acme')]) chmodSync(d, 0o755);
  const [landing, erp, consolePort] = [await freePort(), await freePort(), await freePort()];
  let out = '';
  const child = spawn(
    '/bin/sh',
    ['-c', 'umask 000 && exec "$0" --import tsx apps/platform/src/main.ts', process.execPath],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        LANDING_PORT: String(landing),
        LANDING_HOST: '127.0.0.1',
        ERP_PORT: String(erp),
        ERP_HOST: '127.0.0.1',
        CONTROL_PORT: '0',
        FRONTEND_PORT: '0',
        WORKER_METRICS_PORT: '0',
        LOCAL_PROVIDERS_PORT: String(consolePort),
        DOCS: 'off',
        BACKUP_INTERVAL_H: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  try {
    await waitFor('the start-up block', async () => (out.includes('Platform ready') ? true : undefined), 240_000);
    expect(await httpOk(`http://127.0.0.1:${landing}/health`)).toBe(true);
    expect(out).toContain(`DATA_DIR ${dataDir}: tightened 4 entries to owner-only (directories 0700, files 0600)`);
    expect(looseEntries(dataDir)).toEqual([]);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  expect(looseEntries(dataDir)).toEqual([]);
}, 300_000);

it('leaves a DATA_DIR that is a project directory alone, and says so', () => {
  const project = join(base, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{}');
  chmodSync(join(project, 'package.json'), 0o644);
  const outcome = tightenDataDir(project);
  expect(tightenedMessage(project, outcome)).toMatch(/holds package\.json; its modes are left/);
  expect(lstatSync(join(project, 'package.json')).mode & 0o777).toBe(0o644);
});
