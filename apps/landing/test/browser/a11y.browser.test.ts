import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DESKTOP, launchChromium } from './chromium.js';
import { startTestSite, type TestSite } from './site-server.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One page of every type. */
const PAGES: [string, string][] = [
  ['home', '/'],
  ['about', '/about'],
  ['gallery', '/gallery'],
  ['faq', '/faq'],
  ['helpdesk', '/helpdesk'],
  ['blog index', '/blog'],
  ['blog post', '/blog/choosing-blackout-shades'],
  ['product', '/products/plantation-shutters'],
  ['local', '/areas/highlands-ranch-co'],
  ['LP v2', '/lp/motorized-blinds'],
  ['LP v1', '/go/shutters-quote'],
  ['not found', '/products/roller-shade'],
  ['no JavaScript', '/request-not-sent'],
];

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

async function axe(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const r = await (
      window as unknown as { axe: { run(o?: unknown): Promise<{ violations: AxeViolation[] }> } }
    ).axe.run({ resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
}

let site: TestSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startTestSite(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('axe-core finds no violations', () => {
  it('(the harness does report a planted violation)', async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${site.url}/about`);
    await page.evaluate(() =>
      document.querySelector('main')!.insertAdjacentHTML('beforeend', '<img src="/img/roller.svg">'),
    );
    expect((await axe(page)).map((v) => v.id)).toContain('image-alt');
    await ctx.close();
  });

  for (const [name, path] of PAGES) {
    it(`${name} (${path}) on a desktop and at 320 px, with no horizontal scrolling`, async () => {
      for (const viewport of [DESKTOP.viewport!, { width: 320, height: 640 }]) {
        const ctx = await browser.newContext({ viewport });
        const page = await ctx.newPage();
        await page.goto(`${site.url}${path}`);
        expect(await axe(page), `${path} at ${viewport.width}px`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await ctx.close();
      }
    });
  }

  it('the open phone menu at 375 px', async () => {
    const ctx = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    await page.goto(`${site.url}/`);
    await page.click('button.menu-toggle');
    await page.waitForSelector('#site-menu a[href="/faq"]', { state: 'visible' });
    expect(await axe(page)).toEqual([]);
    await ctx.close();
  });

  it('the open popup and a form showing errors', async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${site.url}/products/roller-shades?lp_popup=force`);
    await page.waitForSelector('#estimate-popup[open]');
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('Escape');
    // An empty form: the client's own checks show the errors.
    await page.click('#estimate-form button[type=submit]');
    await page.waitForSelector('#estimate-form-name[aria-invalid=true]');
    expect(await axe(page)).toEqual([]);
    site.failWith = null;
    await ctx.close();
  });
});
