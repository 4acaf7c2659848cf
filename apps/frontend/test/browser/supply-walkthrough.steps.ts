/**
 * The set-up of issue 28's walkthrough, through the office screens that exist for it, at 1280 px: the
 * owner's Settings → Suppliers (three vendors; who makes the roller and the cellular shade), then the
 * Stock screen (the steel bracket, ten received, one per roller shade window).
 */
import type { Page } from 'playwright-core';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import type { RealSession } from './real-session.js';
import { setPartsPerWindow } from './stock.steps.js';

async function addSupplier(page: Page, name: string, email = ''): Promise<void> {
  await page.fill('#sup-name', name);
  await page.fill('#sup-email', email);
  await page.click('#supplier-add button[type="submit"]');
  await page.waitForSelector(`text=${name} added.`);
}

async function productFrom(page: Page, code: string, name: string, supplier: string): Promise<void> {
  const form = page.locator(`form.product-supply[data-code="${code}"]`);
  await form.locator('[data-field="supplier_id"]').selectOption({ label: supplier });
  await form.locator('[data-field="cost_minor"]').fill('90');
  await form.locator('[data-field="lead_days"]').fill('14');
  await form.locator('button[type="submit"]').click();
  await page.waitForSelector(`text=${name}: supplier saved.`);
}

/**
 * Shade Mill (with an email) makes roller shades, Cell Works (without) cellular shades; Bracket Co's
 * steel bracket is stocked (reordered under `min` up to 20), ten received, one used per roller shade.
 */
export async function officeSetsUpSupply(s: RealSession, min: number): Promise<void> {
  const { a } = s.p;
  const ctx = await s.browser.newContext(DESKTOP);
  const owner = await signInToOffice(s, ctx, a, '/office/settings/suppliers', a.owner.email);
  await owner.waitForSelector('#no-suppliers');
  await addSupplier(owner, 'Shade Mill', 'orders@shade.example');
  await addSupplier(owner, 'Cell Works');
  await addSupplier(owner, 'Bracket Co');
  await productFrom(owner, 'roller-shade', 'Roller Shade', 'Shade Mill');
  await productFrom(owner, 'cellular-shade', 'Cellular Shade', 'Cell Works');

  await owner.goto(`${s.p.siteOf(a)}/office/stock`);
  await owner.click('summary:has-text("New part")');
  await owner.fill('#part-name', 'Steel bracket');
  await owner.selectOption('#part-supplier', { label: 'Bracket Co' });
  await owner.fill('#part-supplier-code', 'BC-7');
  await owner.fill('#part-cost', '3.50');
  await owner.fill('#part-min', String(min));
  await owner.fill('#part-max', '20');
  await owner.click('#part-new button[type=submit]');
  await owner.waitForSelector('text=Steel bracket added.');
  await owner.locator('.part summary').first().click();
  await owner.getByLabel('Quantity received').fill('10');
  await owner.getByRole('button', { name: 'Receive', exact: true }).click();
  await owner.waitForSelector('text=Steel bracket: received, 10 on hand.');
  await setPartsPerWindow(owner, 'roller-shade', 'Steel bracket', 1);
  await ctx.close();
}
