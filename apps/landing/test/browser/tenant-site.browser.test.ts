/**
 * A tenant's site in Chromium on its own host: axe finds nothing on any page type (desktop and
 * 320 px, no sideways scrolling, and in the open popup), the home's inline form posts home_inline
 * with the visit's attribution, the tenant's pixel starts with its own id, and screenshots of its
 * home and a product page at 375 and 1280 px go to test-results/site/ for a person to look at. The
 * L2 popup rules run on a tenant's host in popup-triggers and popup-suppression.browser.test.ts.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { alphaSnapshot, betaSnapshot } from '../support/website-fixtures.js';
import { DESKTOP, launchChromium } from './chromium.js';
import { startTestSite, TENANT_HOST_RULES, type TestSite } from './site-server.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = fileURLToPath(new URL('../../../../test-results/site/', import.meta.url));
const A = 'alpha.tenants.test';
const B = 'beta.tenants.test';

/** One page of every type a tenant's site has. */
const PAGES: [string, string, string][] = [
  ['home', A, '/'],
  ['about', A, '/about'],
  ['gallery', A, '/gallery'],
  ['faq', A, '/faq'],
  ['helpdesk', A, '/helpdesk'],
  ['product', A, '/products/roller-shades'],
  ['area', A, '/areas/boulder'],
  ['not found', A, '/products/roller-shade'],
  ['no JavaScript', A, '/request-not-sent'],
  ['home without helpdesk or prices', B, '/'],
  ['product without a price', B, '/products/wood-blinds'],
];

let site: TestSite;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Meta's loader is answered locally: no test reaches the network, and the page's own fbq queue is what is checked. */
async function newPage(opts: BrowserContextOptions = DESKTOP): Promise<Page> {
  const ctx = await browser.newContext(opts);
  contexts.push(ctx);
  await ctx.route('https://connect.facebook.net/**', (r) => r.fulfill({ contentType: 'text/javascript', body: '' }));
  await ctx.route('https://www.facebook.com/**', (r) => r.fulfill({ status: 204 }));
  return ctx.newPage();
}

async function axe(page: Page): Promise<{ id: string; nodes: unknown[] }[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: { run(o?: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe.run({ resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target) }));
  });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [site, browser] = await Promise.all([
    startTestSite({ tenants: [alphaSnapshot('t-alpha', A), betaSnapshot('t-beta', B)] }),
    launchChromium([TENANT_HOST_RULES]),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});
beforeEach(async () => {
  site.estimates.length = 0;
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

describe("a tenant's site in the browser", () => {
  for (const [name, host, path] of PAGES) {
    it(`axe finds no violations on the ${name} page (${host}${path}), desktop and 320 px`, async () => {
      for (const viewport of [DESKTOP.viewport!, { width: 320, height: 640 }]) {
        const page = await newPage({ viewport });
        await page.goto(`${site.tenantUrl(host)}${path}`);
        expect(await axe(page), `${host}${path} at ${viewport.width}px`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      }
    });
  }

  it('axe finds no violations in the open popup on a tenant product page', async () => {
    const page = await newPage();
    await page.goto(`${site.tenantUrl(A)}/products/shutters?lp_popup=force`);
    await page.waitForSelector('#estimate-popup[open]');
    expect(await page.inputValue('#estimate-popup input[name=form_source]')).toBe('product-shutters_popup');
    expect(await axe(page)).toEqual([]);
  });

  it('posts the home page inline form as home_inline with the visit attribution', async () => {
    const page = await newPage();
    await page.goto(`${site.tenantUrl(A)}/?gclid=G-123&utm_source=google`);
    await page.fill('#estimate-form-name', 'Ben Inline');
    await page.fill('#estimate-form-phone', '(303) 555-0142');
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate .form-success:not([hidden])');
    expect(site.estimates[0]).toMatchObject({ form_source: 'home_inline', gclid: 'G-123', utm_source: 'google' });
  });

  it("starts the tenant's own pixel, and none on a tenant without one", async () => {
    const page = await newPage();
    await page.goto(`${site.tenantUrl(A)}/products/roller-shades`);
    const queue = await page.evaluate(() =>
      (window as unknown as { fbq: { queue: unknown[][] } }).fbq.queue.map((a) => [...a]),
    );
    expect(queue).toEqual([
      ['init', '111222333444'],
      ['track', 'PageView'],
    ]);
    await page.goto(`${site.tenantUrl(B)}/`);
    expect(await page.evaluate(() => typeof (window as unknown as { fbq?: unknown }).fbq)).toBe('undefined');
  });

  it('screenshots a tenant home and product page at 375 and 1280 px', async () => {
    for (const [w, opts] of [
      ['375', { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }],
      ['1280', DESKTOP],
    ] as [string, BrowserContextOptions][]) {
      const page = await newPage(opts);
      for (const [name, path] of [
        ['home', '/'],
        ['product', '/products/roller-shades'],
        ['gallery', '/gallery'],
      ]) {
        await page.goto(`${site.tenantUrl(A)}${path}`);
        await page.screenshot({ path: `${SHOTS}tenant-${name}-${w}.png`, fullPage: true });
      }
    }
  });
});
