/**
 * Builds the docs site: VitePress renders docs/ (dead links fail), then each API reference gets a page
 * with the Scalar reference bundled from npm (no CDN: the page loads only files of this site) and its
 * OpenAPI description as JSON.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { escapeHtml } from '@platform/web/escape-html.js';
import { build } from 'vitepress';

import { API_REFERENCES, type ApiReference } from './api-references.js';

export const SITE_ROOT = fileURLToPath(new URL('../site', import.meta.url));
export const DEFAULT_DIST = fileURLToPath(new URL('../dist', import.meta.url));

const esc = escapeHtml;

function referencePage(r: ApiReference): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${esc(r.title)} · API reference</title></head>
<body>
<p style="margin:8px 16px;font:14px system-ui"><a href="../index.html">← Platform docs</a> · <a href="openapi/${r.slug}.json">OpenAPI description (JSON)</a></p>
<div id="app"></div>
<script src="scalar/standalone.js"></script>
<script>Scalar.createApiReference('#app', { url: 'openapi/${r.slug}.json', withDefaultFonts: false, telemetry: false, agent: { disabled: true } })</script>
</body>
</html>
`;
}

export async function buildDocsSite(
  opts: { root?: string; outDir?: string; references?: ApiReference[] } = {},
): Promise<{ outDir: string; ms: number }> {
  const started = Date.now();
  const outDir = opts.outDir ?? DEFAULT_DIST;
  await build(opts.root ?? SITE_ROOT, { outDir });
  const api = join(outDir, 'api');
  mkdirSync(join(api, 'openapi'), { recursive: true });
  mkdirSync(join(api, 'scalar'), { recursive: true });
  const require = createRequire(import.meta.url);
  // The package exports no path to its browser bundle; it sits beside the main entry (dist/).
  copyFileSync(
    join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js'),
    join(api, 'scalar', 'standalone.js'),
  );
  for (const r of opts.references ?? API_REFERENCES) {
    writeFileSync(join(api, 'openapi', `${r.slug}.json`), JSON.stringify(await r.spec(), null, 1));
    writeFileSync(join(api, `${r.slug}.html`), referencePage(r));
  }
  assertApiLinksResolve(outDir);
  return { outDir, ms: Date.now() - started };
}

/** VitePress cannot see the reference pages (written after it), so links into /api/ are checked here. */
function assertApiLinksResolve(outDir: string): void {
  const dead: string[] = [];
  for (const f of readdirSync(outDir).filter((n) => n.endsWith('.html'))) {
    for (const m of readFileSync(join(outDir, f), 'utf8').matchAll(/href="\/(api\/[^"#?]*)"/g))
      if (!existsSync(join(outDir, m[1]!))) dead.push(`${f} -> /${m[1]}`);
  }
  if (dead.length) throw new Error(`dead link to an unknown API reference: ${[...new Set(dead)].join(', ')}`);
}
