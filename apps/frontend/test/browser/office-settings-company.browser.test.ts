/**
 * Issue 24's Company screen against the real platform (test/support/real-platform.ts). On Free, B's
 * owner is told that a logo and colours come with Starter (the branding fields disabled) and still
 * saves the company's name and currency, which the quotes then show. Upgraded to Professional, the
 * owner uploads a logo (a PNG made here), is told a too-light main colour cannot be saved, picks a
 * darker one, and the field app and the customer portal show that logo and colour (the portal its
 * figures in euros). Axe 0 and no
 * sideways scroll at 1280 and 375 px.
 */
import { randomUUID } from 'node:crypto';

import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import { signInToOffice } from './office-session.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform();
const checkBothWidths = bothWidthsChecker('settings');

/** What the page's header shows: the logo's src (loaded, not broken) and the brand colour. */
const header = (page: Page) =>
  page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('header.top img');
    return {
      logo: img ? new URL(img.src).pathname : null,
      loaded: img ? img.complete && img.naturalWidth > 0 : false,
      brand: getComputedStyle(document.documentElement).getPropertyValue('--brand').trim(),
    };
  });

/** B's office sends a one-window quote: the customer's portal link. */
async function sendQuote(token: string): Promise<string> {
  const made = await s.p.api(
    token,
    'POST',
    '/sales/quotes',
    {
      customer: { name: 'Cara Customer', email: 'cara@example.com' },
      lines: [
        { product_code: 'roller-shade', room: 'Den', width_in: 35.5, drop_in: 47, mount: 'inside', colour: 'Linen' },
      ],
    },
    { 'idempotency-key': randomUUID() },
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const sent = await s.p.api(token, 'POST', `/sales/quotes/${made.body.id}/send`, {});
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body.portal_url;
}

describe("the owner's Company settings", () => {
  it('on Free names the plan for branding, saves the details and currency; on Professional the logo and colour reach the field app and portal', async () => {
    const { b } = s.p;
    const down = await s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'free' });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await signInToOffice(s, ctx, b, '/office/settings', b.owner.email);
    await page.waitForSelector('h1:has-text("Settings: Company")');
    expect(await page.getAttribute('.settings-tabs a:first-child', 'aria-current')).toBe('page');
    expect(await page.textContent('#branding-locked')).toContain('A logo and colours come with Starter.');
    expect(await page.isDisabled('#logo-file')).toBe(true);
    expect(await page.isDisabled('#primary-color')).toBe(true);
    await page.fill('#c-name', 'Bayside Shades & Blinds');
    await page.fill('#c-email', 'not an email');
    await page.selectOption('#c-currency', 'EUR');
    await page.selectOption('#c-zone', 'Europe/Dublin');
    await page.click('#company-form button[type=submit]');
    await page.waitForSelector('#c-email[aria-invalid="true"]');
    expect(await page.textContent('[data-err-for="email"]')).toBe('must be an email address');
    await page.fill('#c-email', 'hello@bayside-b.test');
    await page.click('#company-form button[type=submit]');
    await page.waitForSelector('text=Company settings saved.');
    expect(await page.inputValue('#c-currency')).toBe('EUR');
    expect(await page.inputValue('#c-zone')).toBe('Europe/Dublin');
    await checkBothWidths(page, 'company-free');

    const portalUrl = await sendQuote(b.owner.token);
    const quotes = await ctx.newPage();
    await quotes.goto(`${s.p.siteOf(b)}/office/quotes`);
    await quotes.waitForSelector('td[data-label="Total"]');
    expect(await quotes.textContent('td[data-label="Total"]')).toMatch(/^€\d/);
    await quotes.close();

    const up = await s.p.api(b.owner.token, 'PUT', `/api/tenants/${b.id}/plan`, { plan: 'professional' });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await page.reload();
    await page.waitForSelector('#logo-file:not([disabled])');
    expect(await page.$('#branding-locked')).toBeNull();
    const png = await sharp({ create: { width: 600, height: 200, channels: 3, background: '#0a6e4f' } })
      .png()
      .toBuffer();
    await page.setInputFiles('#logo-file', { name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.waitForSelector('text=The logo is saved');
    await page.waitForFunction(
      () => (document.querySelector<HTMLImageElement>('img#logo-preview')?.naturalWidth ?? 0) > 0,
    );
    const logo = new URL((await page.getAttribute('img#logo-preview', 'src'))!, s.p.siteOf(b)).pathname;

    await page.fill('#primary-color', '#ffd700');
    expect(await page.textContent('#primary-color-note')).toContain('cannot be saved');
    await page.click('#company-form button[type=submit]');
    await page.waitForSelector('#primary-color[aria-invalid="true"]');
    expect(await page.textContent('[data-err-for="primary_color"]')).toMatch(/needs at least 4\.5:1/);
    await page.fill('#primary-color', '#7a1f3d');
    expect(await page.textContent('#primary-color-note')).toContain('enough');
    await page.click('#company-form button[type=submit]');
    await page.waitForSelector('text=Company settings saved.');
    await checkBothWidths(page, 'company-professional');

    for (const url of [`${s.p.siteOf(b)}/field/jobs`, portalUrl]) {
      const shown = await ctx.newPage();
      await shown.goto(url);
      await shown.waitForSelector('header.top img');
      await shown.waitForFunction(
        () => (document.querySelector<HTMLImageElement>('header.top img')?.naturalWidth ?? 0) > 0,
      );
      expect(await header(shown)).toEqual({ logo, loaded: true, brand: '#7A1F3D' });
      // The portal's figures are in the tenant's currency too.
      if (url === portalUrl) expect(await shown.textContent('main')).toMatch(/Total\s*€\d/);
      await shown.screenshot({
        path: `test-results/frontend/settings-company-shown-${url.includes('/field/') ? 'field' : 'portal'}.png`,
      });
      await shown.close();
    }
    await ctx.close();
  });
});
