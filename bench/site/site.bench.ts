/**
 * npm run bench:site: a product page and an LP v2 page on a mobile profile. Prints Lighthouse
 * performance and accessibility, LCP, CLS, and the script bytes loaded before any interaction, and
 * ratios against baselines measured in the same run and served the same way (same server, same
 * compression and headers): a trivial static page (Lighthouse and playwright), and each page with
 * its script tag removed (playwright only: a Lighthouse run costs ~7 s here and the bench must stay
 * under 3 minutes). Numbers from this VM are for ratios, not absolutes (reference/performance-anchors.md).
 * BENCH_RUNS (default 3) sets the runs per target; the medians are printed.
 * A tenant's site is served beside the platform's (its own host, rendered from a snapshot and cached):
 * its home and a product page get the same Lighthouse/playwright rows, and the platform home and the
 * tenant home are measured in requests/s, interleaved, with the ratio (goal >= 0.9).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium } from 'playwright-core';

import { type Asset, makeAsset } from '../../apps/landing/src/site/assets.js';
import { registerSite, sendAsset } from '../../apps/landing/src/site/site.routes.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../apps/landing/test/browser/chromium.js';
import { FAKE_CAPTCHA_JS, serveTenantHosts } from '../../apps/landing/test/browser/site-server.js';
import { alphaSnapshot } from '../../apps/landing/test/support/website-fixtures.js';
import { freePort, type LhResult, measureLighthouse, median } from '../lighthouse.js';
import { measurePlaywright, type PwResult } from './measure.js';
import { compareHomes } from './throughput.js';

const PAGES = ['/products/roller-shades', '/lp/spring-sale'];
// A `.localhost` name: like the platform's pages on 127.0.0.1, a secure context to Lighthouse, so
// best practices judges the page and not the bench's plain HTTP (tenants get HTTPS from the proxy).
const TENANT_HOST = 'alpha.tenants.localhost';
const TENANT_PAGES = ['/', '/products/roller-shades'];
/** The bench tenant sets no pixel: Lighthouse here must not depend on Meta's servers. */
const TENANT = { ...alphaSnapshot('bench-tenant', TENANT_HOST), meta_pixel_id: null };
const TENANT_LOCALHOST_RULES = '--host-resolver-rules=MAP *.tenants.localhost 127.0.0.1';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const JS_GOAL_GZIP = 15 * 1024;
const SITE = { siteName: 'Front Range Window Co', captcha: { scriptUrl: '/local-captcha/api.js', siteKey: 'bench' } };
const STATIC_BASELINE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Baseline</title><meta name="description" content="Plain static page"></head><body><main><h1>Custom roller shades</h1><p>Clean, simple and easy on the budget, in light-filtering, solar or blackout fabrics.</p></main></body></html>`;

/** Each bench page as served, minus its module script: rendered by a throwaway instance of the site. */
async function noBundleVariants(): Promise<Map<string, Asset>> {
  const probe: FastifyInstance = Fastify();
  await registerSite(probe, SITE);
  const out = new Map<string, Asset>();
  for (const p of PAGES) {
    const html = (await probe.inject({ url: p, headers: { 'accept-encoding': 'identity' } })).body;
    const stripped = html.replace(/<script type="module" src="\/assets\/[^"]+"><\/script>/, '');
    if (stripped === html) throw new Error(`no bundle script found in ${p}`);
    out.set(p, makeAsset(stripped, 'text/html; charset=utf-8'));
  }
  await probe.close();
  return out;
}

async function startServer(): Promise<{ base: string; reads: () => number }> {
  const variants = await noBundleVariants();
  const app = Fastify();
  const websites = serveTenantHosts(app, [TENANT]);
  // The platform's site with its public origin set, as deployed (SITE_URL): canonical URLs are absolute.
  const sitePort = await freePort();
  await registerSite(app, { ...SITE, websites, publicUrl: `http://127.0.0.1:${sitePort}` });
  app.get('/local-captcha/api.js', (_q, r) => r.type('text/javascript').send(FAKE_CAPTCHA_JS));
  const stat = makeAsset(STATIC_BASELINE, 'text/html; charset=utf-8');
  app.get('/bench/static', (req, reply) => sendAsset(req, reply, stat, 'no-cache'));
  for (const [p, asset] of variants)
    app.get(`/bench/no-bundle${p}`, (req, reply) => sendAsset(req, reply, asset, 'no-cache'));
  return { base: await app.listen({ port: sitePort, host: '127.0.0.1' }), reads: () => websites.reads };
}

interface Row {
  lh: LhResult | null;
  pw: PwResult;
}

async function main(): Promise<void> {
  const started = Date.now();
  const { base, reads } = await startServer();
  const rpsLine = await compareHomes(base, TENANT_HOST, reads);
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, TENANT_LOCALHOST_RULES, `--remote-debugging-port=${port}`],
  });
  const tenantBase = base.replace('127.0.0.1', TENANT_HOST);
  const targets: [label: string, url: string, lighthouse: boolean][] = [
    ['static baseline', `${base}/bench/static`, true],
  ];
  for (const p of PAGES)
    targets.push([`${p} (no bundle)`, `${base}/bench/no-bundle${p}`, false], [p, `${base}${p}`, true]);
  for (const p of TENANT_PAGES) targets.push([`tenant ${p}`, `${tenantBase}${p}`, true]);

  let lhError: string | null = null;
  const results = new Map<string, Row>();
  for (const [label, url, withLh] of targets) {
    const lhs: LhResult[] = [];
    const pws: PwResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      pws.push(await measurePlaywright(browser, url));
      if (lhError || !withLh) continue;
      try {
        lhs.push(await measureLighthouse(port, url, { allCategories: true }));
      } catch (e) {
        lhError = (e as Error).message;
      }
    }
    const med = <T>(xs: T[], k: keyof T): number => median(xs.map((x) => Number(x[k])));
    results.set(label, {
      lh: lhs.length
        ? {
            perf: med(lhs, 'perf'),
            a11y: med(lhs, 'a11y'),
            bp: med(lhs, 'bp'),
            seo: med(lhs, 'seo'),
            failed: [...new Set(lhs.flatMap((l) => l.failed ?? []))],
            lcpMs: med(lhs, 'lcpMs'),
            cls: med(lhs, 'cls'),
            tbtMs: med(lhs, 'tbtMs'),
            benchmarkIndex: med(lhs, 'benchmarkIndex'),
          }
        : null,
      pw: {
        lcpMs: med(pws, 'lcpMs'),
        cls: med(pws, 'cls'),
        jsWireBytes: med(pws, 'jsWireBytes'),
        jsGzipBytes: med(pws, 'jsGzipBytes'),
        scripts: med(pws, 'scripts'),
      },
    });
  }
  await browser.close();

  const ratio = (a: number | undefined, b: number | undefined): string => (a && b ? (a / b).toFixed(2) : '-');
  const stat = results.get('static baseline')!;
  const table = [...results].map(([label, r]) => {
    const nb = results.get(`${label} (no bundle)`);
    return {
      page: label,
      'LH perf': r.lh?.perf ?? '-',
      'LH a11y': r.lh?.a11y ?? '-',
      'LH BP': r.lh?.bp ?? '-',
      'LH SEO': r.lh?.seo ?? '-',
      'LH LCP ms': r.lh ? Math.round(r.lh.lcpMs) : '-',
      'LH CLS': r.lh ? Number(r.lh.cls.toFixed(3)) : '-',
      'LH TBT ms': r.lh ? Math.round(r.lh.tbtMs) : '-',
      'PW LCP ms': Math.round(r.pw.lcpMs),
      'PW CLS': Number(r.pw.cls.toFixed(3)),
      'JS wire B': r.pw.jsWireBytes,
      'JS gzip B': r.pw.jsGzipBytes,
      'LH LCP ÷ static': ratio(r.lh?.lcpMs, stat.lh?.lcpMs),
      'PW LCP ÷ static': ratio(r.pw.lcpMs, stat.pw.lcpMs),
      'PW LCP ÷ no-bundle': nb ? ratio(r.pw.lcpMs, nb.pw.lcpMs) : '-',
    };
  });

  console.log(
    `Site bench: ${RUNS} run(s) per target, medians. Debian Chromium ${browser.version()} via playwright-core.`,
  );
  console.log(
    'LH = Lighthouse mobile (simulated slow 4G, 4x CPU); PW = playwright, 390x844 phone, 4x CPU, PerformanceObserver.',
  );
  console.log(
    'Baselines in this run, same server and compression: a static page, and each page without its <script> (PW only).',
  );
  const bi = median([...results.values()].map((r) => r.lh?.benchmarkIndex ?? NaN));
  if (!Number.isNaN(bi))
    console.log(
      `Lighthouse CPU benchmark index ${Math.round(bi)} (a busy machine scores lower and inflates TBT, costing perf points).`,
    );
  console.table(table);
  for (const p of [...PAGES, ...TENANT_PAGES.map((t) => `tenant ${t}`)]) {
    const r = results.get(p)!;
    const lh = r.lh
      ? `perf ${r.lh.perf}, a11y ${r.lh.a11y}, best practices ${r.lh.bp}, SEO ${r.lh.seo}${r.lh.failed?.length ? ` (failing: ${r.lh.failed.join(', ')})` : ''}, LCP ${Math.round(r.lh.lcpMs)} ms, CLS ${Number(r.lh.cls.toFixed(3))}`
      : 'Lighthouse unavailable';
    // Ad landing pages (/lp/) are noindex on purpose: SEO's "is crawlable" cannot pass there, so no SEO goal.
    const scores = r.lh ? [r.lh.perf, r.lh.a11y, r.lh.bp, ...(p.startsWith('/lp/') ? [] : [r.lh.seo])] : [];
    const all100 = r.lh ? scores.every((x) => x === 100) : false;
    const ok = r.lh ? all100 && r.lh.cls === 0 && r.pw.jsGzipBytes < JS_GOAL_GZIP : false;
    console.log(
      `${p}: ${lh}; JS before interaction ${r.pw.jsGzipBytes} B gzipped (${r.pw.jsWireBytes} B on the wire, ${r.pw.scripts} script); ` +
        `LCP ÷ static baseline ${ratio(r.lh?.lcpMs, stat.lh?.lcpMs)} (LH), ${ratio(r.pw.lcpMs, stat.pw.lcpMs)} (PW) -> goals (perf, a11y, best practices, SEO 100; CLS 0; JS < 15 KB gzip) ${ok ? 'met' : 'NOT met'}`,
    );
  }
  console.log(rpsLine);
  if (lhError) console.log(`Lighthouse failed (${lhError}); only the PW columns are measured.`);
  console.log(`Took ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
