/**
 * One real platform (test/support/real-platform.ts) and one Chromium reaching its tenant hosts for a
 * test file, started before its tests and closed after them; and where the screenshots go.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { CHROMIUM_LOCALHOST_ARGS, type RealPlatform, startRealPlatform } from '../support/real-platform.js';
import { launchChromium } from './chromium.js';

export const SHOTS = join(process.cwd(), 'test-results', 'frontend');

export interface RealSession {
  p: RealPlatform;
  browser: Browser;
}

export function useRealPlatform(): RealSession {
  const s: Partial<RealSession> = {};
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [s.p, s.browser] = await Promise.all([startRealPlatform(), launchChromium(CHROMIUM_LOCALHOST_ARGS)]);
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.p?.close();
  });
  return s as RealSession;
}
