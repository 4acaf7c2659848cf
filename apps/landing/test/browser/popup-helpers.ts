/** Helpers for the popup tests: a paused page clock, scrolling to a fraction, reading the dialog. */
import type { Page } from 'playwright-core';

export const T0 = new Date('2026-11-22T10:00:00Z').getTime();

/** Installs a paused clock so that dwell and expiry are driven only by the test. */
export async function pausedClock(page: Page, at = T0): Promise<void> {
  await page.clock.install({ time: at - 1000 });
  await page.clock.pauseAt(at);
}

export const popupOpen = (page: Page): Promise<boolean> =>
  page.evaluate(() => (document.getElementById('estimate-popup') as HTMLDialogElement | null)?.open ?? false);

/** Positive checks wait (a busy CI box may take a moment to dispatch the scroll or mouse event). */
export async function waitOpen(page: Page): Promise<void> {
  await page.waitForSelector('#estimate-popup[open]', { state: 'attached', timeout: 10_000 });
}

export const popupSource = (page: Page): Promise<string> =>
  page.inputValue('#estimate-popup input[name=form_source]');

/** Scrollable distance (page height minus viewport), in CSS pixels. */
export const scrollable = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);

export async function scrollToY(page: Page, y: number): Promise<void> {
  await page.evaluate((top) => window.scrollTo(0, top), y);
  // Scroll events are dispatched with the next rendering step; give it a few frames of real time.
  await page.waitForTimeout(250);
}

/** Moves the mouse around the page, then out through the top edge (exit intent). */
export async function exitThroughTop(page: Page): Promise<void> {
  await page.mouse.move(600, 400);
  await page.mouse.move(600, 5);
  await page.mouse.move(600, -20);
  await page.waitForTimeout(250);
}

export async function fillPopup(page: Page, name: string, email: string): Promise<void> {
  await page.fill('#popup-form-name', name);
  await page.fill('#popup-form-email', email);
}
