/**
 * L2 popup triggers: each at its threshold (popup.config.ts) and not one step before; first one wins.
 * Every case runs on the platform's own host and on a tenant's published site.
 */
import { describe, expect, it } from 'vitest';

import { DESKTOP, PHONE } from './chromium.js';
import {
  exitThroughTop,
  fillPopup,
  intersecting,
  pausedClock,
  POPUP_HOSTS,
  popupOpen,
  popupSource,
  scrollable,
  scrollToY,
  submitPopup,
  usePopupFixture,
  waitOpen,
} from './popup-helpers.js';

const fx = usePopupFixture();
const EXIT_MEDIA = '(min-width: 768px) and (hover: hover)';

describe.each(POPUP_HOSTS)('L2 popup triggers on $name', (h) => {
  const at = (path: string): string => fx.url(h, path);

  it('opens on scroll at 40% of the scrollable height and not at one pixel less', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/products/roller-shades'));
    const max = await scrollable(page);
    expect(max).toBeGreaterThan(1000);
    await scrollToY(page, Math.ceil(max * 0.4) - 1);
    expect(await page.evaluate(() => window.scrollY)).toBe(Math.ceil(max * 0.4) - 1);
    expect(await popupOpen(page)).toBe(false);
    await scrollToY(page, Math.ceil(max * 0.4));
    await waitOpen(page);
    expect(await popupSource(page)).toBe('product-roller-shades_popup_scroll');
  });

  it('opens after 10 s of dwell and not at 9.999 s; the submitted value carries _dwell', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/'));
    expect(await page.textContent('.site-header .brand span')).toBe(h.siteName);
    await page.clock.runFor(9_999);
    expect(await popupOpen(page)).toBe(false);
    await page.clock.runFor(1);
    await waitOpen(page);
    // The served field holds the authored template; the trigger is appended when the form is sent.
    expect(await page.inputValue('#estimate-popup input[name=form_source]')).toBe('home_popup');
    await fillPopup(page, 'Dana Dwell', 'dana@example.com');
    await submitPopup(page);
    expect(fx.site.estimates).toHaveLength(1);
    expect(fx.site.estimates[0]).toMatchObject({
      form_source: 'home_popup_dwell',
      name: 'Dana Dwell',
      captcha_token: 'tok-test-site-key-estimate',
    });
  });

  it('opens on exit intent through the top edge on a desktop, not on moves inside or out of the bottom or side', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/about'));
    expect(await page.evaluate((m) => matchMedia(m).matches, EXIT_MEDIA)).toBe(true);
    await page.mouse.move(100, 100);
    await page.mouse.move(1200, 790);
    await page.mouse.move(600, 1);
    await page.mouse.move(600, 900); // out through the bottom
    await page.mouse.move(5, 400);
    await page.mouse.move(-20, 400); // out through the left side
    await page.waitForTimeout(250);
    expect(await popupOpen(page)).toBe(false);
    await exitThroughTop(page);
    await waitOpen(page);
    expect(await popupSource(page)).toBe('about_popup_exit');
  });

  it('never uses exit intent on a phone viewport; the other triggers still work there', async () => {
    const page = await fx.newPage(PHONE);
    await pausedClock(page);
    await page.goto(at('/about'));
    expect(await page.evaluate((m) => matchMedia(m).matches, EXIT_MEDIA)).toBe(false);
    await exitThroughTop(page);
    await page.evaluate(() => document.dispatchEvent(new MouseEvent('mouseout', { clientY: -5, bubbles: true })));
    await page.waitForTimeout(150);
    expect(await popupOpen(page)).toBe(false);
    await page.clock.runFor(10_000);
    await waitOpen(page);
    expect(await popupSource(page)).toBe('about_popup_dwell');
  });

  // The media query's own edges: 767 px with a mouse and a 1024 px touch tablet get no exit intent.
  for (const [label, opts, expected] of [
    ['767 px wide with a mouse', { viewport: { width: 767, height: 800 } }, false],
    ['768 px wide with a mouse', { viewport: { width: 768, height: 800 } }, true],
    ['a 1024 px touch tablet', { viewport: { width: 1024, height: 768 }, isMobile: true, hasTouch: true }, false],
  ] as const) {
    it(`exit intent ${expected ? 'fires' : 'does not fire'} on ${label}`, async () => {
      const page = await fx.newPage(opts);
      await pausedClock(page);
      await page.goto(at('/gallery'));
      expect(await page.evaluate((m) => matchMedia(m).matches, EXIT_MEDIA)).toBe(expected);
      await exitThroughTop(page);
      if (expected) await waitOpen(page);
      expect(await popupOpen(page)).toBe(expected);
    });
  }

  it('opens when the article footer enters the viewport (before 40% scroll), not 5 px before', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at(h.article.path));
    // Make the page long after the article so the footer is reached well before 40%.
    await page.evaluate(() => {
      const pad = document.createElement('div');
      pad.style.height = '6000px';
      document.querySelector('main')!.append(pad);
    });
    const footerTop = await page.evaluate(
      () => document.querySelector('.article-footer')!.getBoundingClientRect().top + window.scrollY,
    );
    const vh = await page.evaluate(() => window.innerHeight);
    expect((footerTop - vh + 5) / (await scrollable(page))).toBeLessThan(0.4);
    await scrollToY(page, footerTop - vh - 5);
    expect(await intersecting(page, '.article-footer')).toBe(false);
    expect(await popupOpen(page)).toBe(false);
    await scrollToY(page, footerTop - vh + 5);
    expect(await intersecting(page, '.article-footer')).toBe(true);
    await waitOpen(page);
    expect(await popupSource(page)).toBe(`${h.article.template}_footer`);
  });

  it('does not take an article footer already in view when the page starts for an entry', async () => {
    // A short article on a tall screen: counting it would open the popup the moment the page shows.
    const page = await fx.newPage({ viewport: { width: 1280, height: 8000 } });
    await pausedClock(page);
    await page.goto(at(h.article.path));
    expect(await scrollable(page)).toBeLessThanOrEqual(0);
    expect(await intersecting(page, '.article-footer')).toBe(true);
    expect(await popupOpen(page)).toBe(false);
  });

  it('fires only the first trigger: after it, no other trigger opens the popup again', async () => {
    const page = await fx.newPage();
    await pausedClock(page);
    await page.goto(at('/faq'));
    await page.clock.runFor(10_000);
    await waitOpen(page);
    expect(await popupSource(page)).toBe('faq_popup_dwell');
    await page.keyboard.press('Escape');
    // Forget the dismissal, so only "first one wins" can keep the popup closed.
    await page.evaluate(() => localStorage.removeItem('lp_popup_dismissed'));
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    await page.clock.runFor(60_000);
    expect(await popupOpen(page)).toBe(false);
  });

  it('stands down once the visitor starts filling an inline form', async () => {
    const page = await fx.newPage(DESKTOP);
    await pausedClock(page);
    await page.goto(at('/products/roman-shades'));
    await page.fill('#estimate-form-name', 'Tia Typing');
    await scrollToY(page, await scrollable(page));
    await exitThroughTop(page);
    await page.clock.runFor(20_000);
    expect(await popupOpen(page)).toBe(false);
  });
});
