/**
 * Global setup of the browser suite (vitest.browser.config.ts): a seed directory for this run, so the
 * real platform is seeded once and each file starts from a copy (real-platform.ts); removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'browser-seed-'));
  process.env.REAL_PLATFORM_SEED_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
