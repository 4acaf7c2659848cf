/**
 * Settings → Suppliers against the real platform: A's owner adds a vendor (a bad email said beside its
 * field first), then sets who supplies the roller shade, the vendor's code, the cost and the lead time
 * (a lead time the API refuses is said beside its field); the product's supply reads back as saved.
 * Axe 0 and no sideways scroll at 1280 and 375 px.
 */
import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const checkBothWidths = bothWidthsChecker('settings-suppliers');

describe("the owner's suppliers per product", () => {
  it('adds a vendor and sets the roller shade supplier, code, cost and lead time', async () => {
    const { a } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/suppliers', a.owner.email);
    await page.waitForSelector('h1:has-text("Settings: Suppliers")');
    await page.waitForSelector('#no-suppliers');
    await page.fill('#sup-name', 'Shade Mill');
    await page.fill('#sup-email', 'not-an-email');
    await page.click('#supplier-add button[type="submit"]');
    await page.waitForSelector('#sup-email[aria-invalid="true"]');
    expect(await page.textContent('#sup-email-err')).toContain('email');
    await page.fill('#sup-email', 'orders@shade.example');
    await page.click('#supplier-add button[type="submit"]');
    await page.waitForSelector('text=Shade Mill added.');
    expect(await page.textContent('#supplier-list')).toContain('orders@shade.example');

    const form = page.locator('form.product-supply[data-code="roller-shade"]');
    await form.locator('[data-field="supplier_id"]').selectOption({ label: 'Shade Mill' });
    await form.locator('[data-field="supplier_code"]').fill('SM-ROLLER');
    await form.locator('[data-field="cost_minor"]').fill('80.50');
    await form.locator('[data-field="lead_days"]').fill('400');
    await form.locator('button[type="submit"]').click();
    await form.locator('[data-field="lead_days"][aria-invalid="true"]').waitFor();
    expect(await form.textContent()).toContain('must be at most 365');
    await checkBothWidths(page, 'refused');
    await form.locator('[data-field="lead_days"]').fill('10');
    await form.locator('button[type="submit"]').click();
    await page.waitForSelector('text=supplier saved.');
    const saved = await s.p.api(a.owner.token, 'GET', '/supply/products/roller-shade');
    expect(saved.body).toMatchObject({
      supplier: { name: 'Shade Mill' },
      supplier_code: 'SM-ROLLER',
      cost_minor: 8050,
      lead_days: 10,
    });
    const again = page.locator('form.product-supply[data-code="roller-shade"]');
    expect(await again.locator('[data-field="cost_minor"]').inputValue()).toBe('80.50');
    await checkBothWidths(page, 'saved');
    await ctx.close();
  }, 240_000);
});
