/**
 * Helpers for the popup tests: one site and browser per file serving both the platform's own host
 * and a tenant's published site, a paused page clock, and waits that end when the page has really
 * processed an event, so that a "not open" check is never hollow.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';

import { popupTenantSnapshot } from '../support/website-fixtures.js';
import { DESKTOP, launchChromium } from './chromium.js';
import { startTestSite, TENANT_HOST_RULES, type TestSite } from './site-server.js';

export const T0 = new Date('2026-11-22T10:00:00Z').getTime();
export const DAY = 24 * 60 * 60 * 1000;

/**
 * A host the popup suites run on. Both serve the same product and area paths (the tenant's fixture
 * uses the platform's slugs); they differ in where an article with a `.article-footer` is.
 */
export interface PopupHost {
  name: string;
  /** The company name in the header: proves which site answered. */
  siteName: string;
  /** A tenant's primary host, or null for the platform's own. */
  host: string | null;
  /** A page ending in `.article-footer`, and its popup template. */
  article: { path: string; template: string };
  /** A second article-like page (GPC is checked on it). */
  otherArticle: string;
}

export const PLATFORM_HOST: PopupHost = {
  name: "the platform's host",
  siteName: 'Brightview Blinds',
  host: null,
  article: { path: '/blog/measuring-windows', template: 'blog-measuring-windows_popup' },
  otherArticle: '/blog/shutters-vs-blinds',
};

/** A tenant's site published from a website snapshot; its about page is its article. */
export const TENANT_HOST: PopupHost = {
  name: "a tenant's host",
  siteName: 'Gamma Window Co',
  host: 'gamma.tenants.test',
  article: { path: '/about', template: 'about_popup' },
  otherArticle: '/about',
};

export const POPUP_HOSTS = [PLATFORM_HOST, TENANT_HOST];

export interface PopupFixture {
  site: TestSite;
  /** Absolute URL of `path` on the host. */
  url(h: PopupHost, path: string): string;
  newPage(opts?: BrowserContextOptions, init?: () => void): Promise<Page>;
}

/** Registers the hooks of a popup test file: a test site for both hosts, one browser, a fresh context per page. */
export function usePopupFixture(): PopupFixture {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const fx = {
    site: undefined as unknown as TestSite,
    url: (h: PopupHost, path: string) => `${h.host ? fx.site.tenantUrl(h.host) : fx.site.url}${path}`,
    async newPage(opts: BrowserContextOptions = DESKTOP, init?: () => void): Promise<Page> {
      const ctx = await browser.newContext(opts);
      contexts.push(ctx);
      if (init) await ctx.addInitScript(init);
      return ctx.newPage();
    },
  };
  beforeAll(async () => {
    [fx.site, browser] = await Promise.all([
      startTestSite({ tenants: [popupTenantSnapshot('t-gamma', TENANT_HOST.host!)] }),
      launchChromium([TENANT_HOST_RULES]),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await fx.site?.close();
  });
  beforeEach(async () => {
    fx.site.estimates.length = 0;
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  return fx;
}

/** Installs a paused clock so that dwell and expiry are driven only by the test. */
export async function pausedClock(page: Page, at = T0): Promise<void> {
  await page.clock.install({ time: at - 1000 });
  await page.clock.pauseAt(at);
}

/** Sets GPC the way a browser with the signal on exposes it. */
export const gpcOn = (): void => {
  Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
};

export const popupOpen = (page: Page): Promise<boolean> =>
  page.evaluate(() => (document.getElementById('estimate-popup') as HTMLDialogElement | null)?.open ?? false);

/** Positive checks wait (a busy CI box may take a moment to dispatch the scroll or mouse event). */
export async function waitOpen(page: Page): Promise<void> {
  await page.waitForSelector('#estimate-popup[open]', { state: 'attached', timeout: 10_000 });
}

/** The form_source the popup form will post: its template plus the suffix appended at submit time. */
export const popupSource = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const form = document.querySelector<HTMLFormElement>('#estimate-popup form')!;
    return form.querySelector<HTMLInputElement>('input[name=form_source]')!.value + (form.dataset.sourceSuffix ?? '');
  });

/** Scrollable distance (page height minus viewport), in CSS pixels. */
export const scrollable = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);

/**
 * Scrolls and resolves once the page has dispatched its `scroll` event. The site's listener was
 * added first, so it has run by then: a following "not open" check is a real negative.
 */
export async function scrollToY(page: Page, y: number): Promise<void> {
  await page.evaluate(
    (top) =>
      new Promise<void>((resolve) => {
        const before = window.scrollY;
        window.addEventListener('scroll', () => resolve(), { once: true });
        window.scrollTo(0, top);
        if (window.scrollY === before) resolve(); // nothing moved, so no event will come
      }),
    y,
  );
}

/**
 * Whether `selector` intersects the viewport, read with a fresh IntersectionObserver. Its first
 * report is delivered in the same task as the site's observers, so they have run when it resolves.
 */
export const intersecting = (page: Page, selector: string): Promise<boolean> =>
  page.evaluate(
    (sel) =>
      new Promise<boolean>((resolve) => {
        const io = new IntersectionObserver((entries) => {
          io.disconnect();
          resolve(entries[0]!.isIntersecting);
        });
        io.observe(document.querySelector(sel)!);
      }),
    selector,
  );

/** Moves the mouse around the page, then out through the top edge (exit intent). */
export async function exitThroughTop(page: Page): Promise<void> {
  await page.mouse.move(600, 400);
  await page.mouse.move(600, 5);
  await page.mouse.move(600, -20);
  await page.waitForTimeout(250);
}

export async function fillPopup(page: Page, name: string, email: string): Promise<void> {
  await page.fill('#popup-form-name', name);
  await page.fill('#popup-form-email', email);
}

export async function submitPopup(page: Page): Promise<void> {
  await page.click('#popup-form button[type=submit]');
  await page.waitForSelector('#estimate-popup .form-success:not([hidden])');
}
