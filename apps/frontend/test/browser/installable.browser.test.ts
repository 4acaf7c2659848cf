/**
 * The field app is installable the way Chromium itself decides it (Lighthouse 12 has no PWA
 * category any more): on the signed-in job list, CDP Page.getInstallabilityErrors returns nothing,
 * and the manifest's start_url, scope and icons are served as the manifest describes them.
 * A page without the manifest is checked too, so an empty answer is known to mean something.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ControlStandin } from '../support/control-standin.js';
import { startTestFrontend, type TestFrontend } from '../support/frontend-harness.js';
import { PHONE_375 } from './chromium.js';
import { installabilityErrors, launchProfileChromium, type ProfileChromium } from './installable-chromium.js';

interface Manifest {
  start_url: string;
  scope: string;
  display: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

let control: ControlStandin;
let fe: TestFrontend;
let chromium: ProfileChromium;

beforeAll(async () => {
  control = new ControlStandin();
  await control.start();
  control.addJob({ id: 'job-1' });
  [fe, chromium] = await Promise.all([startTestFrontend(control.url), launchProfileChromium(PHONE_375)]);
});
afterAll(async () => {
  await chromium?.close();
  await fe?.close();
  await control?.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${fe.url}/field/login`);
  await page.fill('#email', control.user.email);
  await page.fill('#password', control.user.password);
  await page.click('#login button[type=submit]');
  await page.waitForURL('**/field/jobs');
  await page.waitForSelector('ul.plain li.card');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
}

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (b: Buffer): string => `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;

describe('installing the field app', () => {
  it('Chromium finds nothing stopping an install on the signed-in job list', async () => {
    const page = await chromium.context.newPage();
    await signIn(page);
    // After a reload the service worker controls the page, as on every later visit.
    await page.reload();
    await page.waitForSelector('ul.plain li.card');
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await installabilityErrors(chromium.context, page)).toEqual([]);
    await page.close();
  });

  it('reports what is missing on a page that links no manifest', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${fe.url}/contact`);
    expect(await installabilityErrors(chromium.context, page)).toContain('no-manifest');
    await page.close();
  });

  it('serves the manifest start_url, inside its scope, and every icon at its stated size and type', async () => {
    const res = await fetch(`${fe.url}/manifest.webmanifest`);
    expect(res.headers.get('content-type')).toContain('application/manifest+json');
    const m = (await res.json()) as Manifest;
    expect(m.display).toBe('standalone');
    const start = new URL(m.start_url, fe.url);
    const scope = new URL(m.scope, fe.url);
    expect(start.href.startsWith(scope.href)).toBe(true);

    const startPage = await fetch(start);
    expect(startPage.status).toBe(200);
    expect(startPage.headers.get('content-type')).toContain('text/html');
    expect(await startPage.text()).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    const scopeAnswer = await fetch(scope, { redirect: 'manual' });
    expect([200, 301, 302]).toContain(scopeAnswer.status);

    expect(m.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(m.icons.some((i) => i.purpose?.split(' ').includes('maskable'))).toBe(true);
    for (const icon of m.icons) {
      const r = await fetch(new URL(icon.src, fe.url));
      expect(r.status, icon.src).toBe(200);
      expect(r.headers.get('content-type'), icon.src).toBe(icon.type);
      expect(pngSize(Buffer.from(await r.arrayBuffer())), icon.src).toBe(icon.sizes);
    }
  });
});
