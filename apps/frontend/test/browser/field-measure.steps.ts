/** The field app's measuring form as a measurer fills it, shared by the measuring browser tests. */
import type { Page } from 'playwright-core';

export interface MeasuredWindow {
  room: string;
  product: string;
  width: [string, string];
  drop: [string, string];
  mount?: 'inside' | 'outside';
  colour?: string;
  options?: string[];
  notes?: string;
}

/** Fills the form with one window (whole inches, then eighths), without saving it. */
export async function measure(page: Page, w: MeasuredWindow): Promise<void> {
  await page.fill('#mf-room', w.room);
  await page.selectOption('#mf-product', w.product);
  await page.fill('#mf-width', w.width[0]);
  await page.selectOption('#mf-width8', w.width[1]);
  await page.fill('#mf-drop', w.drop[0]);
  await page.selectOption('#mf-drop8', w.drop[1]);
  await page.selectOption('#mf-mount', w.mount ?? 'inside');
  await page.fill('#mf-colour', w.colour ?? 'White');
  for (const o of w.options ?? []) await page.check(`#mf-opt-${o}`);
  if (w.notes) await page.fill('#mf-notes', w.notes);
}
