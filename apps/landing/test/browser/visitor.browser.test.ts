/**
 * The site as a visitor meets it: human error messages (client checks and API problems), the HTML
 * 404 page, a form sent with JavaScript off, and the phone menu. Screenshots of each state at
 * 375 px and 1280 px go to test-results/site/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { DESKTOP, launchChromium } from './chromium.js';
import { startTestSite, type TestSite } from './site-server.js';

const SHOTS = fileURLToPath(new URL('../../../../test-results/site/', import.meta.url));
const PHONE_375: BrowserContextOptions = {
  viewport: { width: 375, height: 740 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 1,
};
const SIZES: [string, BrowserContextOptions][] = [
  ['375', PHONE_375],
  ['1280', DESKTOP],
];

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
async function newPage(opts: BrowserContextOptions = DESKTOP): Promise<Page> {
  const ctx = await browser.newContext(opts);
  contexts.push(ctx);
  return ctx.newPage();
}
const shot = (page: Page, name: string, fullPage = false): Promise<Buffer> =>
  page.screenshot({ path: `${SHOTS}${name}.png`, fullPage });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [site, browser] = await Promise.all([startTestSite(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});
beforeEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  site.estimates.length = 0;
  site.helpdesk.length = 0;
  site.failWith = null;
});

const text = (page: Page, sel: string): Promise<string | null> => page.textContent(sel);
const tokensTaken = (page: Page): Promise<number> =>
  page.evaluate(() => (window as { __captchaExecutes?: number }).__captchaExecutes ?? 0);

describe('form errors a person can read', () => {
  for (const [size, opts] of SIZES) {
    it(`an empty estimate form says what to fill in, sends nothing and focuses the name (${size} px)`, async () => {
      const page = await newPage(opts);
      // A page without the L2 popup: scrolling to the button would open it on a popup page.
      await page.goto(`${site.url}/areas/englewood-co`);
      await page.click('#estimate-form button[type=submit]');
      await page.waitForSelector('#estimate-form-name[aria-invalid=true]');
      expect(await text(page, '#estimate-form-name-error')).toBe('Please enter your name.');
      expect(await text(page, '#estimate-form-phone-error')).toBe('Please give a phone number or an email address.');
      expect(await text(page, '#estimate-form-email-error')).toBe('Please give a phone number or an email address.');
      expect(await text(page, '#estimate-form .form-alert')).toBe('Please correct the highlighted fields.');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('estimate-form-name');
      expect(await page.isVisible('#estimate-form-name-error')).toBe(true);
      expect(site.estimates).toEqual([]);
      expect(await tokensTaken(page)).toBe(0);
      await page.locator('#estimate').scrollIntoViewIfNeeded();
      await shot(page, `form-errors-${size}`);
    });
  }

  it('a ZIP of "abc", a phone without area code and a broken email are refused in the browser', async () => {
    const page = await newPage();
    await page.goto(`${site.url}/areas/denver-co`);
    await page.fill('#estimate-form-name', 'Zed Zipper');
    await page.fill('#estimate-form-phone', '555-0142');
    await page.fill('#estimate-form-email', 'zed@example');
    await page.fill('#estimate-form-zip', 'abc');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate-form-zip[aria-invalid=true]');
    expect(await text(page, '#estimate-form-zip-error')).toBe(
      'Please enter a 5-digit ZIP code, like 80211 (or ZIP+4, like 80211-1234).',
    );
    expect(await text(page, '#estimate-form-phone-error')).toBe(
      'Please enter a phone number with its area code, like (303) 555-0142.',
    );
    expect(await text(page, '#estimate-form-email-error')).toBe('Please enter an email address like name@example.com.');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('estimate-form-phone');
    expect(site.estimates).toEqual([]);
    // Correcting a field takes its message away; a valid form is sent.
    await page.fill('#estimate-form-zip', '80211-1234');
    expect(await page.getAttribute('#estimate-form-zip', 'aria-invalid')).toBeNull();
    expect(await page.isHidden('#estimate-form-zip-error')).toBe(true);
    await page.fill('#estimate-form-phone', '(303) 555-0142');
    await page.fill('#estimate-form-email', 'zed@example.com');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('.form-success:not([hidden])');
    expect(site.estimates[0]).toMatchObject({ zip: '80211-1234', phone: '(303) 555-0142', email: 'zed@example.com' });
  });

  it('an empty helpdesk form names each missing answer', async () => {
    const page = await newPage();
    await page.goto(`${site.url}/helpdesk`);
    await page.click('#helpdesk button[type=submit]');
    await page.waitForSelector('#helpdesk-name[aria-invalid=true]');
    expect(await text(page, '#helpdesk-name-error')).toBe('Please enter your name.');
    expect(await text(page, '#helpdesk-email-error')).toBe('Please enter your email address.');
    expect(await text(page, '#helpdesk-message-error')).toBe('Please tell us how we can help.');
    expect(site.helpdesk).toEqual([]);
  });

  it('an API problem is worded by field and rule, never with the schema text', async () => {
    site.failWith = {
      errors: [{ field: 'name', rule: 'required', message: 'Invalid input: expected string, received undefined' }],
    };
    const page = await newPage();
    await page.goto(`${site.url}/gallery`);
    await page.fill('#estimate-form-name', 'Nia Name');
    await page.fill('#estimate-form-email', 'nia@example.com');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate-form-name[aria-invalid=true]');
    expect(await text(page, '#estimate-form-name-error')).toBe('Please enter your name.');
    expect(await page.content()).not.toContain('Invalid input');
  });
});

describe('a mistyped address', () => {
  for (const [size, opts] of SIZES) {
    it(`shows the 404 page with the navigation, the page meant and a way to an estimate (${size} px)`, async () => {
      const page = await newPage(opts);
      const res = await page.goto(`${site.url}/products/roller-shade`);
      expect(res?.status()).toBe(404);
      expect(await text(page, 'h1')).toBe('We could not find that page');
      expect(await page.locator('nav[aria-label=Main] a[href="/gallery"]').count()).toBe(1);
      await shot(page, `not-found-${size}`);
      await page.click('text=Custom roller shades');
      await page.waitForURL(`${site.url}/products/roller-shades`);
      await page.goBack();
      await page.click('text=Choose your area');
      await page.waitForURL(`${site.url}/#areas`);
      expect(await page.isVisible('#areas')).toBe(true);
    });
  }
});

describe('JavaScript switched off', () => {
  for (const [size, opts] of SIZES) {
    it(`a submitted form lands on a page with the phone number and the helpdesk, nothing is sent (${size} px)`, async () => {
      const page = await newPage({ ...opts, javaScriptEnabled: false });
      await page.goto(`${site.url}/products/roller-shades`);
      // The form says so before anyone types.
      expect(
        await page.isVisible('#estimate-form noscript, #estimate-form .form-alert >> text=This form needs JavaScript'),
      ).toBe(true);
      await page.fill('#estimate-form-name', 'Noel Noscript');
      await page.fill('#estimate-form-email', 'noel@example.com');
      await page.click('#estimate-form button[type=submit]');
      await page.waitForURL(`${site.url}/request-not-sent`);
      expect(await text(page, 'h1')).toBe('Your request was not sent');
      expect(await page.isVisible('main a[href="tel:+13035550142"]')).toBe(true);
      expect(await page.content()).not.toMatch(/415|Unsupported|application\/json/);
      expect(site.estimates).toEqual([]);
      await shot(page, `no-javascript-${size}`);
      await page.click('text=Go to the helpdesk');
      await page.waitForURL(`${site.url}/helpdesk`);
    });
  }
});

describe('the phone menu', () => {
  it('on a 375 px phone the navigation folds behind a Menu button on one header line, and opens and closes', async () => {
    const page = await newPage(PHONE_375);
    await page.goto(`${site.url}/`);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.isVisible()).toBe(true);
    expect(await page.isVisible('#site-menu a[href="/faq"]')).toBe(false);
    const header = await page.locator('.site-header').boundingBox();
    expect(header!.height).toBeLessThanOrEqual(72);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'home-menu-closed-375');
    await menu.click();
    await page.waitForSelector('#site-menu a[href="/faq"]', { state: 'visible' });
    // The popover's toggle event (which updates aria-expanded) comes a task after the state change.
    await page.waitForSelector('button.menu-toggle[aria-expanded=true]');
    await shot(page, 'home-menu-open-375');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#site-menu a[href="/faq"]', { state: 'hidden' });
    await page.waitForSelector('button.menu-toggle[aria-expanded=false]');
    await menu.click();
    await page.click('#site-menu a[href="/faq"]');
    await page.waitForURL(`${site.url}/faq`);
  });

  it('on a 1280 px screen the links are in the header and there is no Menu button', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${site.url}/`);
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    for (const href of ['/gallery', '/faq', '/blog', '/about', '/helpdesk'])
      expect(await page.isVisible(`#site-menu a[href="${href}"]`), href).toBe(true);
    await shot(page, 'home-1280');
  });
});
