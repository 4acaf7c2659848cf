/** The quote builder as a person fills it, shared by the stand-in and the real-platform office tests. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Types a measurement the way the form takes it: whole inches, then eighths. */
export async function measure(page: Page, row: number, key: 'width' | 'drop', whole: number, eighths: number) {
  await page.fill(`#l${row}-${key}`, String(whole));
  await page.selectOption(`#l${row}-${key}8`, String(eighths));
}

export const price = (page: Page, row: number) => page.textContent(`#l${row}-price`);

/**
 * Rows 1 and 2 of the three-window quote, each price checked as it changes. Living room, roller shade
 * 46 3/4 × 58: inside $149 (48 × 60 band); outside adds 3″ (60 × 72 band: $179); motorised +$249.
 * Bedroom, cellular shade 30 × 40 1/4 inside: the 36 × 48 band $156, cordless lift +$35; its colour
 * is left empty when `bedroomColour` is not given.
 */
export async function addLivingRoomAndBedroom(page: Page, bedroomColour?: string): Promise<void> {
  await page.click('#add-row');
  await page.fill('#l1-room', 'Living room');
  await page.selectOption('#l1-product', 'roller-shade');
  await page.fill('#l1-colour', 'Charcoal');
  await measure(page, 1, 'width', 46, 6);
  await measure(page, 1, 'drop', 58, 0);
  expect(await price(page, 1)).toBe('$149.00');
  await page.selectOption('#l1-mount', 'outside');
  expect(await price(page, 1)).toBe('$179.00');
  await page.check('#l1-options input[data-option="motorisation"]');
  expect(await price(page, 1)).toBe('$428.00');

  await page.click('#add-row');
  await page.fill('#l2-room', 'Bedroom');
  await page.selectOption('#l2-product', 'cellular-shade');
  if (bedroomColour) await page.fill('#l2-colour', bedroomColour);
  await measure(page, 2, 'width', 30, 0);
  await measure(page, 2, 'drop', 40, 2);
  await page.check('#l2-options input[data-option="cordless-lift"]');
  expect(await price(page, 2)).toBe('$191.00');
}

/** Row 0: the kitchen, a Linen roller shade inside, 36 1/8 × 47 1/8: the 48″ × 48″ band of the default grids, $137. */
export async function fillKitchen(page: Page): Promise<void> {
  await page.fill('#l0-room', 'Kitchen');
  await page.selectOption('#l0-product', 'roller-shade');
  await page.fill('#l0-colour', 'Linen');
  await measure(page, 0, 'width', 36, 1);
  await measure(page, 0, 'drop', 47, 1);
  expect(await price(page, 0)).toBe('$137.00');
  expect(await page.textContent('#l0-how')).toBe('Grid band 48″ × 48″: $137.00');
}
