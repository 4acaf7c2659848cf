/**
 * bench:frontend's Lighthouse and installability numbers for the signed-in job list (/field/jobs).
 * Chromium runs with a profile on disk and a debugging port: playwright-core signs in there, then
 * Lighthouse (default mobile emulation and simulated throttling) opens its own tab in the same
 * profile with the storage kept, so it audits the list the technician sees, not the sign-in screen.
 * Only IndexedDB (the session and the jobs) is kept: before each audit the service worker, its
 * caches and the HTTP cache are cleared, so every byte comes over Lighthouse's simulated slow 4G as
 * on a plain Lighthouse run (a warm worker would answer from cache and flatter the score).
 * The baseline, audited alternately in the same browser: the same rendered list as a static page
 * (no script, no manifest), served with the frontend's own asset code (same compression and headers).
 */
import Fastify from 'fastify';
import type { Page } from 'playwright-core';

import { makeAsset } from '../../apps/frontend/src/assets/assets.js';
import { sendAsset } from '../../apps/frontend/src/features/pages/pages.routes.js';
import { installabilityErrors, launchProfileChromium } from '../../apps/frontend/test/browser/installable-chromium.js';
import { freePort, type LhResult, measureLighthouse, median } from '../lighthouse.js';

export interface JobListAudit {
  jobList: LhResult;
  staticList: LhResult;
  /** Chromium's reasons not to offer an install on /field/jobs; empty = installable. */
  installErrors: string[];
}

export interface AuditInput {
  frontendUrl: string;
  user: { email: string; password: string };
  /** Text on the last job card: the list is complete once it shows. */
  lastJobText: string;
  runs: number;
}

const medians = (xs: LhResult[]): LhResult => {
  const m = (k: keyof LhResult) => median(xs.map((x) => Number(x[k])));
  return {
    perf: m('perf'),
    a11y: m('a11y'),
    lcpMs: m('lcpMs'),
    cls: m('cls'),
    tbtMs: m('tbtMs'),
    benchmarkIndex: m('benchmarkIndex'),
  };
};

/** Everything Lighthouse's own storage reset would clear for the origin, except IndexedDB. */
async function clearAllButIndexedDb(blank: Page, origin: string): Promise<void> {
  const cdp = await blank.context().newCDPSession(blank);
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'service_workers,cache_storage' });
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

export async function auditJobList(input: AuditInput): Promise<JobListAudit> {
  const port = await freePort();
  const chromium = await launchProfileChromium({}, [`--remote-debugging-port=${port}`]);
  const staticServer = Fastify();
  try {
    const page = await chromium.context.newPage();
    await page.goto(`${input.frontendUrl}/field/login`);
    await page.fill('#email', input.user.email);
    await page.fill('#password', input.user.password);
    await page.click('#login button[type=submit]');
    await page.waitForSelector(`text=${input.lastJobText}`);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
    await page.waitForSelector(`text=${input.lastJobText}`);
    const installErrors = await installabilityErrors(chromium.context, page);

    const staticHtml = (await page.content())
      .replace(/<script[^>]*><\/script>/g, '')
      .replace(/<link rel="(?:manifest|apple-touch-icon|icon)"[^>]*>/g, '');
    if (!staticHtml.includes(input.lastJobText)) throw new Error('the static list lost its jobs');
    const asset = makeAsset(staticHtml, 'text/html; charset=utf-8');
    staticServer.get('/bench/static-list', (req, reply) => sendAsset(req, reply, asset));
    const staticUrl = `${await staticServer.listen({ port: 0, host: '127.0.0.1' })}/bench/static-list`;
    // Lighthouse opens a tab of its own: the one playwright used would keep running the app beside it.
    await page.close();
    const blank = await chromium.context.newPage();
    const origin = new URL(input.frontendUrl).origin;

    const jobList: LhResult[] = [];
    const staticList: LhResult[] = [];
    for (let i = 0; i < input.runs; i++) {
      const url = `${input.frontendUrl}/field/jobs`;
      await clearAllButIndexedDb(blank, origin);
      jobList.push(await measureLighthouse(port, url, { keepStorage: true, mustEndAt: url }));
      await clearAllButIndexedDb(blank, new URL(staticUrl).origin);
      staticList.push(await measureLighthouse(port, staticUrl, { keepStorage: true }));
    }
    return { jobList: medians(jobList), staticList: medians(staticList), installErrors };
  } finally {
    await staticServer.close();
    await chromium.close();
  }
}
