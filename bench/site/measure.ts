/**
 * The two measurements of the site bench, both on Debian's Chromium launched by playwright-core:
 * Lighthouse (connected to that browser's CDP port, so nothing is downloaded or launched twice) and
 * a playwright phone-profile load that reads LCP/CLS in the page and counts script bytes over CDP.
 */
import { gzipSync } from 'node:zlib';

import lighthouse from 'lighthouse';
import type { Browser } from 'playwright-core';

import { PHONE } from '../../apps/landing/test/browser/chromium.js';

/** benchmarkIndex: Lighthouse's CPU score of the machine during the run (lower = slower or busier). */
export interface LhResult {
  perf: number;
  a11y: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  benchmarkIndex: number;
}
export interface PwResult {
  lcpMs: number;
  cls: number;
  /** Script bytes on the wire before any interaction (brotli here, headers included). */
  jsWireBytes: number;
  /** The same scripts gzipped (level 9): the unit of the 15 KB goal. */
  jsGzipBytes: number;
  scripts: number;
}

/**
 * Lighthouse 12 defaults: mobile form factor, simulated slow 4G and 4x CPU (the metrics are simulated
 * from the trace, so they do not depend on how long recording goes on). To keep the bench under
 * 3 minutes, screenshots are skipped and the "page is quiet" waits are 500 ms instead of 1 s each:
 * these pages make no request after load until the visitor interacts.
 */
export async function measureLighthouse(port: number, url: string): Promise<LhResult> {
  const r = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    disableFullPageScreenshot: true,
    skipAudits: ['screenshot-thumbnails', 'final-screenshot'],
    pauseAfterFcpMs: 500,
    pauseAfterLoadMs: 500,
    networkQuietThresholdMs: 500,
    cpuQuietThresholdMs: 500,
  });
  if (!r) throw new Error('Lighthouse returned no result');
  const { lhr } = r;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const num = (id: string): number => Number(lhr.audits[id]?.numericValue ?? NaN);
  return {
    perf: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    lcpMs: num('largest-contentful-paint'),
    cls: num('cumulative-layout-shift'),
    tbtMs: num('total-blocking-time'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/** A 390x844 phone with 4x CPU slowdown; no input is sent, so every script counted loaded before interaction. */
export async function measurePlaywright(browser: Browser, url: string): Promise<PwResult> {
  const ctx = await browser.newContext(PHONE);
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const scriptIds = new Set<string>();
  const finished: { id: string; wire: number }[] = [];
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scriptIds.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (scriptIds.has(e.requestId)) finished.push({ id: e.requestId, wire: e.encodedDataLength });
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number; __cls: number };
    w.__lcp = 0;
    w.__cls = 0;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) w.__lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((l) => {
      for (const e of l.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!e.hadRecentInput) w.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const { lcp, cls } = await page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __cls: number };
    return { lcp: w.__lcp, cls: w.__cls };
  });
  let jsGzipBytes = 0;
  for (const f of finished) {
    const b = await cdp.send('Network.getResponseBody', { requestId: f.id });
    jsGzipBytes += gzipSync(Buffer.from(b.body, b.base64Encoded ? 'base64' : 'utf8'), { level: 9 }).length;
  }
  await ctx.close();
  return {
    lcpMs: lcp,
    cls,
    jsWireBytes: finished.reduce((s, f) => s + f.wire, 0),
    jsGzipBytes,
    scripts: finished.length,
  };
}

export const median = (xs: number[]): number => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
