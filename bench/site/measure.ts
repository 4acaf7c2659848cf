/**
 * The site bench's playwright measurement, on Debian's Chromium launched by playwright-core: a
 * phone-profile load that reads LCP/CLS in the page and counts script bytes over CDP. (Its other
 * measurement, Lighthouse on the same browser, is bench/lighthouse.ts, shared with bench:frontend.)
 */
import { gzipSync } from 'node:zlib';

import type { Browser } from 'playwright-core';

import { PHONE } from '../../apps/landing/test/browser/chromium.js';

export interface PwResult {
  lcpMs: number;
  cls: number;
  /** Script bytes on the wire before any interaction (brotli here, headers included). */
  jsWireBytes: number;
  /** The same scripts gzipped (level 9): the unit of the 15 KB goal. */
  jsGzipBytes: number;
  scripts: number;
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
