/**
 * What the real-platform office tests do over and over: sign a person in to an office screen of their
 * tenant (the two-width check is real-session.ts's bothWidthsChecker).
 */
import type { BrowserContext, Page } from 'playwright-core';

import { PASSWORD, type SeededTenant } from '../support/real-platform.js';
import { type RealSession } from './real-session.js';

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

/** A technician signed in to their field app's job list (the sign-in page first, as on a phone). */
export async function signInToField(
  s: RealSession,
  ctx: BrowserContext,
  t: SeededTenant & { technician: { email: string } },
): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${s.p.siteOf(t)}/field/jobs`);
  await page.waitForURL('**/field/login');
  await page.fill('#email', t.technician.email);
  await page.fill('#password', PASSWORD);
  await page.click('#login button[type=submit]');
  await page.waitForURL('**/field/jobs');
  return page;
}
