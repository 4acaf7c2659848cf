import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { DESKTOP, launchChromium } from './chromium.js';
import { pausedClock } from './popup-helpers.js';
import { startTestSite, type TestSite } from './site-server.js';

let site: TestSite;
let browser: Browser;
let ctx: BrowserContext;

beforeAll(async () => {
  [site, browser] = await Promise.all([startTestSite({ apiDelayMs: 300 }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});
beforeEach(async () => {
  await ctx?.close();
  ctx = await browser.newContext(DESKTOP);
  site.estimates.length = 0;
  site.helpdesk.length = 0;
  site.captchaLoads = 0;
  site.contentTypes.length = 0;
  site.failWith = null;
});

const captchaScripts = (page: Page): Promise<number> =>
  page.evaluate(() => document.querySelectorAll('script[src*="local-captcha"]').length);
/** Tokens taken so far (the fake bot-check script counts its execute() calls). */
const tokensTaken = (page: Page): Promise<number> =>
  page.evaluate(() => (window as { __captchaExecutes?: number }).__captchaExecutes ?? 0);

describe('estimate forms', () => {
  it('loads the bot-check script only on first interaction and sends the token in the JSON body', async () => {
    const page = await ctx.newPage();
    await page.goto(`${site.url}/go/free-estimate`);
    await page.waitForTimeout(300);
    expect(await captchaScripts(page)).toBe(0);
    expect(site.captchaLoads).toBe(0);
    await page.focus('#estimate-form-name');
    await page.waitForFunction(() => typeof (window as { grecaptcha?: unknown }).grecaptcha === 'object');
    expect(site.captchaLoads).toBe(1);
    await page.fill('#estimate-form-name', 'Lena Legacy');
    await page.fill('#estimate-form-email', 'lena@example.com');
    await page.check('input[name=products][value=roman-shades]');
    // Tokens expire after two minutes, so none is taken until the visitor submits.
    expect(await tokensTaken(page)).toBe(0);
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('.form-success:not([hidden])');
    expect(await tokensTaken(page)).toBe(1);
    expect(site.contentTypes).toEqual(['application/json']);
    const body = site.estimates[0]!;
    expect(body).toMatchObject({
      name: 'Lena Legacy',
      email: 'lena@example.com',
      products: ['roman-shades'],
      captcha_token: 'tok-test-site-key-estimate',
      lp_slug: 'free-estimate',
    });
    // LP v1 pages post no form_source: the backend records lp_form_legacy.
    expect(body).not.toHaveProperty('form_source');
    expect(site.captchaLoads).toBe(1);
  });

  it('keeps the landing URL attribution for the visit and posts it with the page form_source', async () => {
    const page = await ctx.newPage();
    await page.goto(
      `${site.url}/go/blinds-deals?gclid=G-123&gbraid=GB-1&wbraid=WB-1&utm_source=google&utm_medium=cpc&utm_campaign=fall&utm_term=wood%20blinds&utm_content=ad2`,
    );
    await page.goto(`${site.url}/products/wood-blinds`);
    expect(await page.inputValue('#estimate-form input[name=gclid]')).toBe('G-123');
    await page.fill('#estimate-form-name', 'Ava Attribution');
    await page.fill('#estimate-form-phone', '(303) 555-0199');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('.form-success:not([hidden])');
    expect(site.estimates[0]).toMatchObject({
      form_source: 'product-wood-blinds_inline',
      products: ['wood-blinds'],
      gclid: 'G-123',
      gbraid: 'GB-1',
      wbraid: 'WB-1',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'fall',
      utm_term: 'wood blinds',
      utm_content: 'ad2',
      lp_slug: 'blinds-deals',
    });
  });

  it('shows the backend problem errors next to their inputs and in an alert, in the words of the catalogue', async () => {
    // The API's own messages are for developers; the visitor reads messages.ts, chosen by field and rule.
    site.failWith = {
      errors: [
        { field: 'phone', rule: 'required_one_of', message: 'give a phone number or an email address' },
        { field: 'zip', rule: 'format', message: 'must be a postal code (letters, digits, space or -)' },
        { field: 'captcha_token', rule: 'captcha', message: 'Bot-check token is missing' },
      ],
    };
    const page = await ctx.newPage();
    await page.goto(`${site.url}/faq`);
    await page.fill('#estimate-form-name', 'Erin Error');
    await page.fill('#estimate-form-email', 'erin@example.com');
    await page.fill('#estimate-form-zip', '80211');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate-form-phone[aria-invalid=true]');
    expect(await page.textContent('#estimate-form-phone-error')).toBe(
      'Please give a phone number or an email address.',
    );
    expect(await page.getAttribute('#estimate-form-phone', 'aria-describedby')).toBe('estimate-form-phone-error');
    expect(await page.textContent('#estimate-form-zip-error')).toBe(
      'Please enter a 5-digit ZIP code, like 80211 (or ZIP+4, like 80211-1234).',
    );
    expect(await page.textContent('#estimate-form .form-alert')).toBe(
      'We could not run our spam check. Please try again.',
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('estimate-form-phone');
    expect(await page.isEnabled('#estimate-form button[type=submit]')).toBe(true);
    // Fixing and resubmitting clears the errors.
    site.failWith = null;
    await page.fill('#estimate-form-phone', '303-555-0111');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate-form-phone:not([aria-invalid])', { state: 'attached' });
    expect(await page.textContent('#estimate-form-zip-error')).toBe('');
    await page.waitForSelector('.form-success:not([hidden])');
    expect(site.estimates[0]).toMatchObject({ form_source: 'faq_inline', phone: '303-555-0111' });
    expect(await tokensTaken(page)).toBe(2); // a fresh token for each attempt
  });

  it('never submits twice and focuses the success message', async () => {
    const page = await ctx.newPage();
    await page.goto(`${site.url}/areas/boulder-co`);
    await page.fill('#estimate-form-name', 'Dee Double');
    await page.fill('#estimate-form-email', 'dee@example.com');
    await page.evaluate(() => {
      const b = document.querySelector<HTMLButtonElement>('#estimate-form button[type=submit]')!;
      b.click();
      b.click();
      document.querySelector<HTMLFormElement>('#estimate-form')!.requestSubmit();
    });
    // The answer takes 300 ms: meanwhile the button is disabled and the form busy.
    expect(await page.isDisabled('#estimate-form button[type=submit]')).toBe(true);
    expect(await page.getAttribute('#estimate-form', 'aria-busy')).toBe('true');
    await page.waitForSelector('.form-success:not([hidden])');
    await page.waitForTimeout(500);
    expect(site.estimates).toHaveLength(1);
    expect(site.estimates[0]).toMatchObject({ form_source: 'local-boulder-co_inline' });
    expect(await page.evaluate(() => document.activeElement?.classList.contains('form-success'))).toBe(true);
  });

  it('posts the helpdesk form to /api/helpdesk with its own bot-check action', async () => {
    const page = await ctx.newPage();
    await page.goto(`${site.url}/helpdesk`);
    await page.fill('#helpdesk-name', 'Hal Help');
    await page.fill('#helpdesk-email', 'hal@example.com');
    await page.selectOption('#helpdesk-subject', 'Warranty claim');
    await page.fill('#helpdesk-message', 'One louver on the bedroom shutter is loose.');
    await page.click('#helpdesk button[type=submit]');
    await page.waitForSelector('.form-success:not([hidden])');
    expect(site.helpdesk[0]).toMatchObject({
      name: 'Hal Help',
      email: 'hal@example.com',
      subject: 'Warranty claim',
      message: 'One louver on the bedroom shutter is loose.',
      captcha_token: 'tok-test-site-key-helpdesk',
    });
    expect(site.estimates).toHaveLength(0);
    // Any successful submit, not only an estimate, ends popups for the visit.
    expect(await page.evaluate(() => sessionStorage.getItem('lp_popup_submitted'))).toBe('1');
  });
});

describe('popup accessibility', () => {
  it('is a modal dialog that traps focus, closes on Escape and returns focus', async () => {
    const page = await ctx.newPage();
    await pausedClock(page);
    await page.goto(`${site.url}/about`);
    // An element at the top: focusing one further down would scroll the page past the scroll trigger.
    await page.focus('header a.brand');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await captchaScripts(page)).toBe(0);
    await page.clock.runFor(10_000);
    await page.waitForSelector('#estimate-popup[open]');
    expect(await page.getAttribute('#estimate-popup', 'role')).toBe('dialog');
    expect(await page.getAttribute('#estimate-popup', 'aria-modal')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('popup-form-name');
    expect(await captchaScripts(page)).toBe(1);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('#estimate-popup'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => (document.getElementById('estimate-popup') as HTMLDialogElement).open)).toBe(
      false,
    );
    expect(await page.evaluate(() => document.activeElement?.matches('header a.brand'))).toBe(true);
  });
});
