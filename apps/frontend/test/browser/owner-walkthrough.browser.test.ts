/**
 * Issue 24's must-show, as a newcomer does it against `npm start`'s platform (its local stand-ins on,
 * the local mail console included) in Chromium: sign up a company, verify from the mail console,
 * see that logo and colours come with Starter, edit a grid cell and price a window with it, invite a
 * technician who accepts from the emailed link and signs in to the field app, be refused a second
 * technician with the upgrade named, upgrade to Professional, upload a logo and set a colour seen on
 * the field app and the portal, add a custom domain (CNAME, pending) and a webhook endpoint whose
 * loopback receiver gets a signed lead.created that verifies with the Standard Webhooks reference
 * library, replayed from the log. Axe 0 and no sideways scroll at 1280 and 375 px on each screen.
 */
import { randomUUID } from 'node:crypto';

import { startLoopbackReceiver } from '@platform/webhooks/testing';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { waitUntil } from '../support/real-platform.js';
import { DESKTOP } from './chromium.js';
import { measure, price } from './quote-builder.steps.js';
import { bothWidthsChecker, useRealPlatform } from './real-session.js';

const s = useRealPlatform({ localProviders: true });
const check = bothWidthsChecker('walkthrough');
const OWNER = 'wendy@willow-blinds.test';
const PASSWORD = 'willow blinds 2026';
let receiver: Awaited<ReturnType<typeof startLoopbackReceiver>>;
beforeAll(async () => {
  receiver = await startLoopbackReceiver();
});
afterAll(async () => receiver?.close());

/** Opens the local mail console, the newest message to `to` whose subject matches, and its first link. */
async function linkFromMail(ctx: BrowserContext, to: string, subject: RegExp): Promise<string> {
  const mail = await ctx.newPage();
  const href = await waitUntil(
    `mail to ${to}`,
    async () => {
      await mail.goto(`${s.p.localConsole}/mail`);
      const row = mail.locator('tbody tr', { hasText: to }).filter({ hasText: subject }).first();
      if (!(await row.count())) return undefined;
      await row.locator('a').first().click();
      await mail.waitForSelector('h2:has-text("Links")');
      return (await mail.locator('ul a').first().getAttribute('href')) ?? undefined;
    },
    60_000,
  );
  await mail.close();
  return href;
}

/** The logo a page's header shows and its brand colour. */
const brandOf = (page: Page) =>
  page.evaluate(() => ({
    logo: new URL(document.querySelector<HTMLImageElement>('header.top img')!.src).pathname,
    brand: getComputedStyle(document.documentElement).getPropertyValue('--brand').trim(),
  }));

/** The owner sends a one-window quote (through the API, as the office does): its portal link. */
async function portalLink(slug: string): Promise<string> {
  const login = await s.p.api(undefined, 'POST', '/auth/login', { email: OWNER, password: PASSWORD, tenant: slug });
  const token = login.body.access_token as string;
  const line = {
    product_code: 'roller-shade',
    room: 'Den',
    width_in: 35.5,
    drop_in: 47,
    mount: 'inside',
    colour: 'Linen',
  };
  const made = await s.p.api(
    token,
    'POST',
    '/sales/quotes',
    { customer: { name: 'Cara Customer', email: 'cara@example.com' }, lines: [line] },
    { 'idempotency-key': randomUUID() },
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const sent = await s.p.api(token, 'POST', `/sales/quotes/${made.body.id}/send`, {});
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body.portal_url as string;
}

async function settings(page: Page, tab: string): Promise<void> {
  await page.click(`nav[aria-label="Settings"] >> text=${tab}`);
  await page.waitForSelector(`h1:has-text("Settings: ${tab}")`);
}

describe('a company sets itself up without an operator', () => {
  it('signs up, verifies, prices, invites, upgrades, brands, adds a domain and a webhook', async () => {
    const ctx = await s.browser.newContext(DESKTOP);
    const page = await ctx.newPage();

    // Sign up on the platform's host; the office opens on the company's own host.
    await page.goto(`${s.p.platformSite}/signup`);
    await page.fill('#s-company_name', 'Willow Blinds');
    await page.waitForSelector('#s-host:has-text("willow-blinds.")');
    await page.fill('#s-owner_name', 'Wendy Willow');
    await page.fill('#s-email', OWNER);
    await page.fill('#s-password', PASSWORD);
    await page.click('#signup-form button[type=submit]');
    await page.waitForURL('http://willow-blinds.*/office/leads');
    const site = new URL(page.url()).origin;
    const slug = new URL(site).hostname.split('.')[0]!;
    await page.waitForSelector('#verify-banner');

    // Verify from the local mail console.
    const verify = await linkFromMail(ctx, OWNER, /verify/i);
    await page.goto(verify);
    await page.waitForSelector('#verify-msg:has-text("Your email address is verified")');
    await page.goto(`${site}/office/leads`);
    await page.waitForSelector('body[data-email-verified="true"]', { state: 'attached' });

    // On Free, the branding screen says what brings a logo and colours.
    await page.goto(`${site}/office/settings`);
    await page.waitForSelector('h1:has-text("Settings: Company")');
    expect(await page.textContent('#branding-locked')).toContain('A logo and colours come with Starter.');
    expect(await page.isDisabled('#logo-file')).toBe(true);
    await check(page, 'company-free');

    // A grid cell edited, and the quote builder prices a window with it.
    await page.goto(`${site}/office/settings/price-grids`);
    await page.waitForSelector('h1:has-text("Settings: Price grids")');
    await page.selectOption('#grid-product', 'roller-shade');
    const cell = 'input[aria-label="width 48, drop 48"]';
    await page.fill(cell, '151.25');
    await page.click('#grid-form button[type=submit]');
    await page.waitForSelector('text=Roller Shade saved');
    await page.goto(`${site}/office/quotes/new`);
    await page.waitForSelector('h1:has-text("New quote")');
    await page.selectOption('#l0-product', 'roller-shade');
    await measure(page, 0, 'width', 40, 0);
    await measure(page, 0, 'drop', 44, 4);
    expect(await price(page, 0)).toBe('$151.25');

    // A technician invited, who accepts from the emailed link and signs in to the field app.
    await page.goto(`${site}/office/settings/team`);
    await page.waitForSelector('h1:has-text("Settings: Team")');
    await page.fill('#invite-email', 'tom@willow-blinds.test');
    await page.selectOption('#invite-role', 'technician');
    await page.click('#invite-form button[type=submit]');
    await page.waitForSelector('text=Invitation sent to tom@willow-blinds.test');
    const tech = await s.browser.newContext(DESKTOP);
    const field = await tech.newPage();
    await field.goto(await linkFromMail(ctx, 'tom@willow-blinds.test', /invit/i));
    await field.fill('#a-name', 'Tom Tech');
    await field.fill('#a-password', 'tom the fitter 1');
    await field.fill('#a-confirm', 'tom the fitter 1');
    await field.click('#account-form button[type=submit]');
    await field.waitForURL('**/field/jobs');
    await field.waitForSelector('text=Tom Tech');

    // A second technician is refused on Free, with the plan that allows one named.
    await page.reload();
    await page.waitForSelector('li.card:has-text("Tom Tech")');
    expect(await page.textContent('aside')).toContain('Technicians: 1 of 1');
    await page.fill('#invite-email', 'tina@willow-blinds.test');
    await page.selectOption('#invite-role', 'technician');
    await page.click('#invite-form button[type=submit]');
    await page.waitForSelector('text=The Free plan allows 1 technician. The Starter plan allows more.');
    await check(page, 'team-refused');

    // Upgrade to Professional.
    await settings(page, 'Plan and usage');
    await page.click('button[data-plan="professional"]');
    await page.waitForSelector('text=You are now on the Professional plan.');

    // A logo uploaded and a colour set, seen on the technician's field app and the customer's portal.
    await settings(page, 'Company');
    await page.waitForSelector('#logo-file:not([disabled])');
    const png = await sharp({ create: { width: 480, height: 160, channels: 3, background: '#2d6a4f' } })
      .png()
      .toBuffer();
    await page.setInputFiles('#logo-file', { name: 'willow.png', mimeType: 'image/png', buffer: png });
    await page.waitForSelector('text=The logo is saved');
    const logo = new URL((await page.getAttribute('img#logo-preview', 'src'))!, site).pathname;
    await page.fill('#primary-color', '#1f4e3d');
    await page.click('#company-form button[type=submit]');
    await page.waitForSelector('text=Company settings saved.');
    await check(page, 'company-professional');
    for (const shown of [field, await ctx.newPage()]) {
      await shown.goto(shown === field ? `${site}/field/jobs` : await portalLink(slug));
      await shown.waitForFunction(
        () => (document.querySelector<HTMLImageElement>('header.top img')?.naturalWidth ?? 0) > 0,
      );
      expect(await brandOf(shown)).toEqual({ logo, brand: '#1F4E3D' });
    }

    // A custom domain: its CNAME and pending.
    await settings(page, 'Domains');
    await page.fill('#domain-name', 'www.willow-blinds-example.com');
    await page.click('#domain-form button[type=submit]');
    await page.waitForSelector('text=www.willow-blinds-example.com added');
    const card = page.locator('li.card', { hasText: 'www.willow-blinds-example.com' });
    expect(await card.textContent()).toContain('www.willow-blinds-example.com. CNAME tenants.localhost.');
    expect(await card.locator('.pill').first().textContent()).toBe('pending');

    // A webhook endpoint gets a signed lead.created from a web estimate, and replays it from the log.
    await settings(page, 'Developers');
    await page.fill('#wh-url', receiver.url);
    await page.click('#webhook-form button[type=submit]');
    await page.waitForSelector('#new-secret');
    const secret = await page.inputValue('#new-secret');
    const posted = await s.p.postOnSite({ slug }, '/api/estimate', 'estimate', {
      name: 'Walt Walker',
      email: 'walt@example.com',
      phone: '(303) 555-0177',
      zip: '80211',
      products: ['roller-shades'],
      form_source: 'estimate-page',
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const first = await waitUntil('the signed lead.created', async () => receiver.received[0], 90_000);
    expect(new Webhook(secret).verify(first.body, first.headers)).toMatchObject({ type: 'lead.created' });
    await waitUntil('the delivery in the log', async () => {
      await page.reload();
      const log = page.locator('button[data-log]').first();
      await log.waitFor();
      await log.click();
      const line = page.locator('li.delivery').first();
      await line.waitFor();
      return (await line.textContent())?.includes('delivered') ? true : undefined;
    });
    await page.locator('li.delivery button[data-replay]').first().click();
    await page.waitForSelector('text=Replay queued');
    const again = await waitUntil('the replay', async () => receiver.received[1], 90_000);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(new Webhook(secret).verify(again.body, again.headers)).toMatchObject({ type: 'lead.created' });
    await check(page, 'developers');
    await tech.close();
    await ctx.close();
  });
});
