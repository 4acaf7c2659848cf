/**
 * One real platform (test/support/real-platform.ts) and one Chromium reaching its tenant hosts for a
 * test file, started before its tests and closed after them; and where the screenshots go.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

import {
  CHROMIUM_LOCALHOST_ARGS,
  type RealPlatform,
  type RealPlatformOptions,
  startRealPlatform,
} from '../support/real-platform.js';
import { axe, launchChromium } from './chromium.js';

export const SHOTS = join(process.cwd(), 'test-results', 'frontend');

export interface RealSession {
  p: RealPlatform;
  browser: Browser;
}

export function useRealPlatform(opts: RealPlatformOptions = {}): RealSession {
  const s: Partial<RealSession> = {};
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [s.p, s.browser] = await Promise.all([startRealPlatform(opts), launchChromium(CHROMIUM_LOCALHOST_ARGS)]);
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.p?.close();
  });
  return s as RealSession;
}

/**
 * A check of the page as it is at 1280 px and at 375 px: axe finds nothing at either width, nothing
 * scrolls sideways on the phone, and a screenshot of each goes to SHOTS as `<prefix>-<name>-<width>.png`.
 */
export function bothWidthsChecker(prefix: string): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `${prefix}-${name}-1280.png`), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await axe(page)).toEqual([]);
    // On failure, the message names what sticks out (tag#id.class and its right edge).
    const wide = await page.evaluate(() =>
      document.documentElement.scrollWidth <= 375
        ? []
        : Array.from(document.querySelectorAll('body *'))
            .filter((e) => e.getBoundingClientRect().right > 375)
            .slice(-5)
            .map(
              (e) =>
                `${e.tagName.toLowerCase()}#${e.id}.${e.className} → ${Math.round(e.getBoundingClientRect().right)}`,
            ),
    );
    expect(wide, `${name} scrolls sideways at 375 px`).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `${prefix}-${name}-375.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  };
}
