/**
 * Lighthouse as the benches run it (bench:site, bench:frontend): connected to the CDP port of a
 * Chromium that playwright-core launched, so nothing is downloaded or launched twice.
 */
import { createServer } from 'node:net';

import lighthouse from 'lighthouse';

/** benchmarkIndex: Lighthouse's CPU score of the machine during the run (lower = slower or busier). */
export interface LhResult {
  perf: number;
  a11y: number;
  /** Best practices and SEO: measured with `allCategories` only. */
  bp?: number;
  seo?: number;
  /** With `allCategories`: the best-practices and SEO audits that did not pass (why a score is below 100). */
  failed?: string[];
  lcpMs: number;
  cls: number;
  tbtMs: number;
  benchmarkIndex: number;
}

export interface LhOptions {
  /**
   * Keep the browser's storage (IndexedDB, service worker, caches) instead of clearing it for the
   * origin first: a page that needs a signed-in session is audited as the signed-in user sees it.
   */
  keepStorage?: boolean;
  /** Fail unless the audit ends on this URL (a page that redirects to sign-in would otherwise be audited instead). */
  mustEndAt?: string;
  /** Also best practices and SEO (the public site's bar is 100 in all four). */
  allCategories?: boolean;
}

/** A port nobody listens on right now, for Chromium's --remote-debugging-port. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

/**
 * Lighthouse 12 defaults: mobile form factor, simulated slow 4G and 4x CPU (the metrics are simulated
 * from the trace, so they do not depend on how long recording goes on). To keep the benches short,
 * screenshots are skipped and the "page is quiet" waits are 500 ms instead of 1 s each: the pages
 * audited make no request after load until the visitor interacts.
 */
export async function measureLighthouse(port: number, url: string, opts: LhOptions = {}): Promise<LhResult> {
  const r = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', ...(opts.allCategories ? ['best-practices', 'seo'] : [])],
    disableFullPageScreenshot: true,
    skipAudits: ['screenshot-thumbnails', 'final-screenshot'],
    pauseAfterFcpMs: 500,
    pauseAfterLoadMs: 500,
    networkQuietThresholdMs: 500,
    cpuQuietThresholdMs: 500,
    disableStorageReset: opts.keepStorage ?? false,
  });
  if (!r) throw new Error('Lighthouse returned no result');
  const { lhr } = r;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (opts.mustEndAt && lhr.finalDisplayedUrl !== opts.mustEndAt)
    throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl}, not ${opts.mustEndAt}`);
  const num = (id: string): number => Number(lhr.audits[id]?.numericValue ?? NaN);
  return {
    perf: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    ...(opts.allCategories
      ? {
          bp: Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
          seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
          failed: (['best-practices', 'seo'] as const).flatMap((c) =>
            (lhr.categories[c]?.auditRefs ?? [])
              .filter((a) => a.weight > 0 && (lhr.audits[a.id]?.score ?? 1) < 1)
              .map((a) => `${c}:${a.id}`),
          ),
        }
      : {}),
    lcpMs: num('largest-contentful-paint'),
    cls: num('cumulative-layout-shift'),
    tbtMs: num('total-blocking-time'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

export const median = (xs: number[]): number => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
