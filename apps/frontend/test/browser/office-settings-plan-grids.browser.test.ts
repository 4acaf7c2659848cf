/**
 * Issue 24's Price grids and Plan and usage screens against the real platform
 * (test/support/real-platform.ts). A's owner edits one cell of the roller shade grid (a figure that is
 * not a number, then one the API refuses, each said beside the cell), saves, and the quote builder
 * prices a window with the new figure; the grid goes out as CSV and comes back in changed. On the plan
 * screen the owner sees the usage against the Professional limits, is told what to remove before Free
 * fits (a switch that then waits for a second press) and moves to Starter. Axe 0 and no sideways
 * scroll at 1280 and 375 px.
 */
import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { measure, price } from './quote-builder.steps.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const checkBothWidths = bothWidthsChecker('settings');
/** The first-day roller shade grid's 48″ × 48″ cell ($137.00, control plane default-grids.ts). */
const CELL = 'input[aria-label="width 48, drop 48"]';

describe("the owner's price grids and plan", () => {
  it('edits a grid cell that the quote builder then prices with, and exports and imports the grid', async () => {
    const { a } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/price-grids', a.owner.email);
    await page.waitForSelector('h1:has-text("Settings: Price grids")');
    await page.selectOption('#grid-product', 'roller-shade');
    expect(await page.inputValue(CELL)).toBe('137.00');

    await page.fill(CELL, 'abc');
    await page.click('#grid-form button[type=submit]');
    await page.waitForSelector(`${CELL}[aria-invalid="true"]`);
    expect(await page.textContent('[data-err-for="bands.prices.1.2"]')).toBe('must be a number');
    await page.fill(CELL, '0');
    await page.click('#grid-form button[type=submit]');
    await page.waitForSelector('[data-err-for="bands.prices.1.2"]:has-text("more than 0")');
    expect(await page.getAttribute(CELL, 'aria-invalid')).toBe('true');

    await page.fill(CELL, '142.50');
    await page.click('#grid-form button[type=submit]');
    await page.waitForSelector('text=Roller Shade saved');
    expect(await page.inputValue(CELL)).toBe('142.50');
    await checkBothWidths(page, 'price-grids');

    const builder = await ctx.newPage();
    await builder.goto(`${s.p.siteOf(a)}/office/quotes/new`);
    await builder.waitForSelector('h1:has-text("New quote")');
    await builder.selectOption('#l0-product', 'roller-shade');
    await measure(builder, 0, 'width', 36, 1);
    await measure(builder, 0, 'drop', 47, 1);
    expect(await price(builder, 0)).toBe('$142.50');
    await builder.close();

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button[data-export]')]);
    expect(download.suggestedFilename()).toBe('roller-shade-price-grid.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    const [widths, , drop48] = csv.split('\r\n');
    expect(widths).toMatch(/^drop \\ width \(in\),24,36,48,/);
    expect(drop48).toMatch(/^48,\d+\.\d\d,\d+\.\d\d,142\.50,/);
    await page.setInputFiles('#grid-import', {
      name: 'roller.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv.replace(/^(48,[^,]+,[^,]+,)142\.50/m, '$1145.25')),
    });
    await page.waitForSelector('text=The table is filled from roller.csv');
    expect(await page.inputValue(CELL)).toBe('145.25');
    await page.click('#grid-form button[type=submit]');
    await page.waitForSelector('text=Roller Shade saved');
    const saved = await s.p.api(a.owner.token, 'GET', '/sales/price-grids/roller-shade');
    expect(saved.body.bands.prices[1][2]).toBe(145.25);
    await ctx.close();
  });

  it('shows the usage against the limits, what Free needs removed first, and moves to Starter', async () => {
    const { a } = s.p;
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, a, '/office/settings/plan', a.owner.email);
    await page.waitForSelector('h2:has-text("Your plan: Professional")');
    const usage = (await page.textContent('#usage-h + ul'))!;
    expect(usage).toContain('Users: 3 of 15');
    expect(usage).toContain('Technicians: 1 of 10');
    expect(await page.textContent('main')).toContain('No payment is taken for the plan here');
    await checkBothWidths(page, 'plan');

    const free = page.locator('.settings-plans > li', { has: page.locator('h3:has-text("Free")') });
    expect(await free.textContent()).toContain('remove 1 user first');
    expect(await free.locator('button').count()).toBe(0); // no switch to a plan the team does not fit
    const refused = await s.p.api(a.owner.token, 'PUT', `/api/tenants/${a.id}/plan`, { plan: 'free' });
    expect(refused.status).toBe(409);
    expect((await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/plan`)).body.plan).toBe('professional');

    await page.click('button[data-plan="starter"]');
    await page.waitForSelector('text=You are now on the Starter plan.');
    expect(await page.textContent('#usage-h')).toBe('Your plan: Starter');
    expect((await s.p.api(a.owner.token, 'GET', `/api/tenants/${a.id}/plan`)).body.plan).toBe('starter');
    await ctx.close();
  });
});
