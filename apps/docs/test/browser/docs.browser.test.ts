/**
 * The docs site in Chromium: the API references render from the locally bundled Scalar with no request
 * leaving the machine, and the local search finds a page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { launchChromium } from '../../../landing/test/browser/chromium.js';
import { loadDocsConfig } from '../../src/docs.config.js';
import { startDocs } from '../../src/docs.server.js';

let tmp: string;
let docs: Awaited<ReturnType<typeof startDocs>>;
let browser: Browser;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'docs-browser-'));
  [docs, browser] = await Promise.all([
    startDocs(
      loadDocsConfig({
        DOCS_PORT: '0',
        DOCS_DIST: join(tmp, 'dist'),
        DATA_DIR: tmp,
        DOCS_PASSWORD: 'correct horse battery',
      }),
    ),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await docs?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function page() {
  const ctx = await browser.newContext({ httpCredentials: { username: 'docs', password: 'correct horse battery' } });
  const p = await ctx.newPage();
  const outside: string[] = [];
  p.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol.startsWith('http') && u.hostname !== '127.0.0.1') outside.push(r.url());
  });
  return { p, outside, close: () => ctx.close() };
}

describe('docs site in a browser', () => {
  it.each([
    ['public', 'Estimate or callback request'],
    ['erp-rest', '/restapi/1.0/object/'],
    ['control-plane', 'Change plan'],
  ])('renders the %s API reference with Scalar from the site itself', async (slug, text) => {
    const { p, outside, close } = await page();
    try {
      await p.goto(`${docs!.url}/api/${slug}.html`);
      await p.getByText(text).first().waitFor({ timeout: 60_000 });
      expect(outside).toEqual([]);
    } finally {
      await close();
    }
  });

  it('finds a page with the local search', async () => {
    const { p, outside, close } = await page();
    try {
      await p.goto(`${docs!.url}/`);
      await p.locator('#local-search button, .VPNavBarSearchButton').first().click();
      // Type into the search box once it is open (typing before it has focus loses the keys).
      const input = p.locator('#localsearch-input');
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await input.fill('dead letters');
      await p.locator('.result').first().waitFor({ timeout: 30_000 });
      expect(await p.locator('.result').count()).toBeGreaterThan(0);
      expect(outside).toEqual([]);
    } finally {
      await close();
    }
  });
});
