import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, PHONE, launchChromium } from './chromium.js';
import { startTestSite, type TestSite } from './site-server.js';
import { T0, waitOpen, exitThroughTop, fillPopup, pausedClock, popupOpen, popupSource, scrollToY, scrollable } from './popup-helpers.js';

const DAY = 24 * 60 * 60 * 1000;
let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function newPage(opts = DESKTOP, init?: () => void): Promise<Page> {
  const ctx = await browser.newContext(opts);
  contexts.push(ctx);
  if (init) await ctx.addInitScript(init);
  return ctx.newPage();
}

beforeAll(async () => {
  [site, browser] = await Promise.all([startTestSite(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});
beforeEach(async () => {
  site.estimates.length = 0;
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

describe('L2 popup triggers', () => {
  it('opens on scroll at 40% of the scrollable height and not at one pixel less', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/products/roller-shades`);
    const max = await scrollable(page);
    await scrollToY(page, Math.ceil(max * 0.4) - 1);
    expect(await popupOpen(page)).toBe(false);
    await scrollToY(page, Math.ceil(max * 0.4));
    await waitOpen(page);
    expect(await popupSource(page)).toBe('product-roller-shades_popup_scroll');
  });

  it('opens after 10 s of dwell and not at 9.999 s, and the submitted value carries _dwell', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/`);
    await page.clock.runFor(9_999);
    expect(await popupOpen(page)).toBe(false);
    await page.clock.runFor(1);
    await waitOpen(page);
    await fillPopup(page, 'Dana Dwell', 'dana@example.com');
    await page.click('#popup-form button[type=submit]');
    await page.waitForSelector('#estimate-popup .form-success:not([hidden])');
    expect(site.estimates).toHaveLength(1);
    expect(site.estimates[0]).toMatchObject({ form_source: 'home_popup_dwell', name: 'Dana Dwell', captcha_token: 'tok-test-site-key-estimate' });
  });

  it('opens on exit intent through the top edge on a desktop, not on moves inside or out of the bottom', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/about`);
    await page.mouse.move(100, 100);
    await page.mouse.move(1200, 790);
    await page.mouse.move(600, 900);
    await page.waitForTimeout(150);
    expect(await popupOpen(page)).toBe(false);
    await exitThroughTop(page);
    await waitOpen(page);
    expect(await popupSource(page)).toBe('about_popup_exit');
  });

  it('never uses exit intent on a phone viewport', async () => {
    const page = await newPage(PHONE);
    await pausedClock(page);
    await page.goto(`${site.url}/about`);
    expect(await page.evaluate(() => matchMedia('(min-width: 768px) and (hover: hover)').matches)).toBe(false);
    await exitThroughTop(page);
    await page.evaluate(() => document.dispatchEvent(new MouseEvent('mouseout', { clientY: -5, bubbles: true })));
    await page.waitForTimeout(150);
    expect(await popupOpen(page)).toBe(false);
    // The other triggers still work on a phone.
    await page.clock.runFor(10_000);
    expect(await popupSource(page)).toBe('about_popup_dwell');
  });

  it('opens when the article footer enters the viewport, before the scroll threshold', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/blog/measuring-windows`);
    // Make the page long after the article so the footer is reached well before 40%.
    await page.evaluate(() => {
      const pad = document.createElement('div');
      pad.style.height = '6000px';
      document.querySelector('main')!.append(pad);
    });
    const footerTop = await page.evaluate(() => document.querySelector('.article-footer')!.getBoundingClientRect().top + window.scrollY);
    const vh = await page.evaluate(() => window.innerHeight);
    const max = await scrollable(page);
    expect((footerTop - vh + 5) / max).toBeLessThan(0.4);
    await scrollToY(page, footerTop - vh - 5);
    expect(await popupOpen(page)).toBe(false);
    await scrollToY(page, footerTop - vh + 5);
    await page.waitForSelector('#estimate-popup[open]');
    expect(await popupSource(page)).toBe('blog-measuring-windows_popup_footer');
  });

  it('stands down once the visitor starts filling an inline form', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/products/roman-shades`);
    await page.fill('#estimate-form-name', 'Tia Typing');
    await scrollToY(page, await scrollable(page));
    await page.clock.runFor(20_000);
    expect(await popupOpen(page)).toBe(false);
  });

  it('fires only the first trigger', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/faq`);
    await page.clock.runFor(10_000);
    await exitThroughTop(page);
    expect(await popupSource(page)).toBe('faq_popup_dwell');
  });
});

describe('L2 popup suppression', () => {
  it('shows no popup after any form was submitted in this tab (lp_popup_submitted), but does in a new tab', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/products/wood-blinds`);
    await page.fill('#estimate-form-name', 'Sam Submit');
    await page.fill('#estimate-form-phone', '303-555-0100');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate-form + .form-success:not([hidden])');
    expect(await page.evaluate(() => sessionStorage.getItem('lp_popup_submitted'))).toBe('1');
    await page.goto(`${site.url}/`);
    await page.clock.runFor(20_000);
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    expect(await popupOpen(page)).toBe(false);
    // Session storage ends with the tab: a new tab is eligible again.
    const tab = await page.context().newPage();
    await tab.goto(`${site.url}/`);
    await tab.clock.runFor(10_000);
    await waitOpen(tab);
  });

  it('Escape dismisses for 24 hours (lp_popup_dismissed), then the popup comes back', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/gallery`);
    await page.clock.runFor(10_000);
    await waitOpen(page);
    await page.keyboard.press('Escape');
    expect(await popupOpen(page)).toBe(false);
    expect(Number(await page.evaluate(() => localStorage.getItem('lp_popup_dismissed')))).toBe(T0 + 10_000);

    const dismissedAt = T0 + 10_000;
    await page.clock.runFor(DAY - 10_001); // now: dismissedAt + 24 h - 10.001 s
    await page.reload();
    await page.clock.runFor(10_000); // the dwell trigger fires at dismissedAt + 24 h - 1 ms
    expect(await page.evaluate(() => Date.now())).toBe(dismissedAt + DAY - 1);
    expect(await popupOpen(page)).toBe(false);

    await page.clock.runFor(1); // exactly 24 h after the dismissal
    await page.reload();
    await scrollToY(page, await scrollable(page));
    await waitOpen(page);
    expect(await popupSource(page)).toBe('gallery_popup_scroll');
    expect(await page.evaluate(() => localStorage.getItem('lp_popup_dismissed'))).toBeNull();
  });

  it('the close button also counts as a dismissal', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/areas/denver-co`);
    await page.clock.runFor(10_000);
    await page.click('#estimate-popup .popup-close');
    expect(await popupOpen(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('lp_popup_dismissed'))).not.toBeNull();
  });

  it('shows no popup when Global Privacy Control is on, not even forced', async () => {
    const gpc = (): void => { Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true }); };
    const page = await newPage(DESKTOP, gpc);
    await pausedClock(page);
    await page.goto(`${site.url}/blog/shutters-vs-blinds`);
    expect(await page.evaluate(() => (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl)).toBe(true);
    await page.clock.runFor(15_000);
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    expect(await popupOpen(page)).toBe(false);
    await page.goto(`${site.url}/?lp_popup=force`);
    await page.waitForTimeout(200);
    expect(await popupOpen(page)).toBe(false);
  });
});

describe('QA force and LP v2', () => {
  it('?lp_popup=force opens the popup at once, past a dismissal, and appends _force', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/`);
    await page.evaluate((t) => localStorage.setItem('lp_popup_dismissed', String(t)), T0);
    await page.goto(`${site.url}/products/cellular-shades?lp_popup=force`);
    await page.waitForSelector('#estimate-popup[open]');
    expect(await popupSource(page)).toBe('product-cellular-shades_popup_force');
    await fillPopup(page, 'Quinn QA', 'qa@example.com');
    await page.click('#popup-form button[type=submit]');
    await page.waitForSelector('#estimate-popup .form-success:not([hidden])');
    expect(site.estimates[0]).toMatchObject({ form_source: 'product-cellular-shades_popup_force' });
  });

  it('LP v2 pages have no automatic triggers; the CTA opens the popup with the hero value', async () => {
    const page = await newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/lp/spring-sale?gclid=GCLID-LP`);
    await page.clock.runFor(60_000);
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    expect(await popupOpen(page)).toBe(false);
    await page.click('a[data-open-popup] >> nth=0');
    await waitOpen(page);
    expect(await popupSource(page)).toBe('lp-spring-sale_hero');
    await fillPopup(page, 'Lee Landing', 'lee@example.com');
    await page.click('#popup-form button[type=submit]');
    await page.waitForSelector('#estimate-popup .form-success:not([hidden])');
    expect(site.estimates[0]).toMatchObject({ form_source: 'lp-spring-sale_hero', lp_slug: 'spring-sale', gclid: 'GCLID-LP' });
  });

  it('under GPC the LP v2 CTA is a plain link to the hero form', async () => {
    const page = await newPage(DESKTOP, () => { Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }); });
    await page.goto(`${site.url}/lp/free-measure`);
    await page.click('a[data-open-popup] >> nth=0');
    expect(await popupOpen(page)).toBe(false);
    expect(new URL(page.url()).hash).toBe('#hero-form');
  });
});
