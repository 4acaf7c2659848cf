/**
 * L2 popup suppression (the two storage keys and their lifetimes), GPC and QA force, on the
 * platform's own host and on a tenant's published site; LP v2 pages (the platform's only).
 */
import { describe, expect, it } from 'vitest';

import { DESKTOP } from './chromium.js';
import {
  DAY,
  exitThroughTop,
  fillPopup,
  gpcOn,
  pausedClock,
  PLATFORM_HOST,
  POPUP_HOSTS,
  popupOpen,
  popupSource,
  scrollable,
  scrollToY,
  submitPopup,
  T0,
  usePopupFixture,
  waitOpen,
} from './popup-helpers.js';

const fx = usePopupFixture();
const dismissedAt = (page: import('playwright-core').Page): Promise<string | null> =>
  page.evaluate(() => localStorage.getItem('lp_popup_dismissed'));

describe.each(POPUP_HOSTS)('L2 popup suppression on $name', (h) => {
  const at = (path: string): string => fx.url(h, path);

  it('an inline form submit sets lp_popup_submitted: no popup for the tab, but a new tab is eligible', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/products/wood-blinds'));
    expect(await page.textContent('.site-header .brand span')).toBe(h.siteName);
    await page.fill('#estimate-form-name', 'Sam Submit');
    await page.fill('#estimate-form-phone', '303-555-0100');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate-form + .form-success:not([hidden])');
    expect(await page.evaluate(() => sessionStorage.getItem('lp_popup_submitted'))).toBe('1');
    await page.goto(at('/'));
    await page.clock.runFor(20_000);
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    expect(await popupOpen(page)).toBe(false);
    // Session storage ends with the tab: a new tab is eligible again.
    const tab = await page.context().newPage();
    await tab.goto(at('/'));
    await tab.clock.runFor(10_000);
    await waitOpen(tab);
  });

  it('a popup submit sets lp_popup_submitted, and closing it afterwards is not a dismissal', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/areas/aurora-co'));
    await page.clock.runFor(10_000);
    await waitOpen(page);
    await fillPopup(page, 'Pat Popup', 'pat@example.com');
    await submitPopup(page);
    expect(fx.site.estimates[0]).toMatchObject({ form_source: 'local-aurora-co_popup_dwell' });
    expect(await page.evaluate(() => sessionStorage.getItem('lp_popup_submitted'))).toBe('1');
    await page.keyboard.press('Escape');
    expect(await popupOpen(page)).toBe(false);
    expect(await dismissedAt(page)).toBeNull();
    await page.goto(at('/areas/lakewood-co'));
    await page.clock.runFor(10_000);
    expect(await popupOpen(page)).toBe(false);
  });

  it('Escape sets lp_popup_dismissed: still blocking at 24 h - 1 ms, expired and removed at 24 h', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/gallery'));
    await page.clock.runFor(10_000);
    await waitOpen(page);
    await page.keyboard.press('Escape');
    expect(await popupOpen(page)).toBe(false);
    const closedAt = T0 + 10_000;
    await expect.poll(async () => Number(await dismissedAt(page))).toBe(closedAt);

    // Suppression is decided when the page starts: load it at dismissal + 24 h - 1 ms and go past
    // the scroll threshold, which would open the popup at once if the triggers were armed.
    await page.clock.runFor(DAY - 1);
    await page.reload();
    expect(await page.evaluate(() => Date.now())).toBe(closedAt + DAY - 1);
    await scrollToY(page, await scrollable(page));
    expect(await popupOpen(page)).toBe(false);
    expect(Number(await dismissedAt(page))).toBe(closedAt);

    await page.clock.runFor(1); // exactly 24 h after the dismissal
    await page.reload();
    expect(await dismissedAt(page)).toBeNull();
    await scrollToY(page, await scrollable(page));
    await waitOpen(page);
    expect(await popupSource(page)).toBe('gallery_popup_scroll');
  });

  it('the close button and a backdrop click also count as a dismissal', async () => {
    for (const close of ['#estimate-popup .popup-close', 'backdrop'] as const) {
      const page = await fx.newPage();
      await pausedClock(page);
      await page.goto(at('/areas/denver-co'));
      await page.clock.runFor(10_000);
      await waitOpen(page);
      if (close === 'backdrop') await page.mouse.click(5, 5);
      else await page.click(close);
      expect(await popupOpen(page)).toBe(false);
      // The dialog's close event, which records the dismissal, is dispatched as a task after close().
      await expect.poll(async () => Number(await dismissedAt(page))).toBe(T0 + 10_000);
    }
  });

  it('shows no popup when Global Privacy Control is on, not even forced', async () => {
    const page = await fx.newPage(DESKTOP, gpcOn);
    await pausedClock(page);
    await page.goto(at(h.otherArticle));
    expect(
      await page.evaluate(() => (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl),
    ).toBe(true);
    await page.clock.runFor(15_000);
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    expect(await popupOpen(page)).toBe(false);
    await page.goto(at('/?lp_popup=force'));
    await page.waitForTimeout(200);
    expect(await popupOpen(page)).toBe(false);
  });

  it('?lp_popup=force opens the popup at once, past both keys, and appends _force', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/'));
    await page.evaluate((t) => {
      localStorage.setItem('lp_popup_dismissed', String(t));
      sessionStorage.setItem('lp_popup_submitted', '1');
    }, T0);
    await page.goto(at('/products/cellular-shades'));
    await page.clock.runFor(10_000);
    expect(await popupOpen(page)).toBe(false);
    await page.goto(at('/products/cellular-shades?lp_popup=force'));
    await waitOpen(page);
    expect(await popupSource(page)).toBe('product-cellular-shades_popup_force');
    await fillPopup(page, 'Quinn QA', 'qa@example.com');
    await submitPopup(page);
    expect(fx.site.estimates[0]).toMatchObject({ form_source: 'product-cellular-shades_popup_force' });
  });
});

// A tenant's site has no LP v2 pages (docs/website.md): their CTA popup is the platform host's only.
describe('LP v2 on the platform host', () => {
  const at = (path: string): string => fx.url(PLATFORM_HOST, path);

  it('LP v2 pages have no automatic triggers; the CTA opens the popup with the hero value', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/lp/spring-sale?gclid=GCLID-LP'));
    await page.clock.runFor(60_000);
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    expect(await popupOpen(page)).toBe(false);
    await page.click('a[data-open-popup] >> nth=0');
    await waitOpen(page);
    expect(await popupSource(page)).toBe('lp-spring-sale_hero');
    await fillPopup(page, 'Lee Landing', 'lee@example.com');
    await submitPopup(page);
    expect(fx.site.estimates[0]).toMatchObject({
      form_source: 'lp-spring-sale_hero',
      lp_slug: 'spring-sale',
      gclid: 'GCLID-LP',
    });
  });

  it('under GPC the LP v2 CTA is a plain link to the hero form', async () => {
    const page = await fx.newPage(DESKTOP, gpcOn);
    await page.goto(at('/lp/free-measure'));
    await page.click('a[data-open-popup] >> nth=0');
    expect(await popupOpen(page)).toBe(false);
    expect(new URL(page.url()).hash).toBe('#hero-form');
  });
});
