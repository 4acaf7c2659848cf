/**
 * What the real-platform office tests do over and over: sign a person in to an office screen of their
 * tenant, and check a screen at 1280 and 375 px (axe 0, no sideways scroll, a screenshot of each).
 */
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

import { PASSWORD, type SeededTenant } from '../support/real-platform.js';
import { axe } from './chromium.js';
import { type RealSession, SHOTS } from './real-session.js';

export async function signInToOffice(
  s: RealSession,
  ctx: BrowserContext,
  t: SeededTenant,
  path: string,
  email: string,
): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${s.p.siteOf(t)}${path}`);
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await page.click('#login button[type=submit]');
  await page.waitForSelector('#office-bar');
  return page;
}

/** Axe 0 and no sideways scroll at 1280 and 375 px; screenshots `<shot>-1280.png` and `<shot>-375.png`. */
export async function checkBothWidths(page: Page, shot: string): Promise<void> {
  expect(await axe(page)).toEqual([]);
  await page.screenshot({ path: join(SHOTS, `${shot}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await axe(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: join(SHOTS, `${shot}-375.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}
