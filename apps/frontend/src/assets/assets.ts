/**
 * Builds one small client bundle per area (field, portal, contact) and the service worker with
 * esbuild when the server starts (so `npm start` works straight after `npm ci`), and keeps them in
 * memory with pre-compressed variants under content-hashed URLs. The service worker is built last,
 * with the field bundle's URL in its precache list.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import { build } from 'esbuild';

import { iconPng, iconSvg } from './icons.js';

export interface Asset {
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  type: string;
  etag: string;
  /** Content-hashed URLs never change: cache them for a year. */
  immutable: boolean;
}

export type Area = 'field' | 'portal' | 'contact' | 'office' | 'account';
const AREAS: Area[] = ['field', 'portal', 'contact', 'office', 'account'];
const JS = 'text/javascript; charset=utf-8';

const entry = (rel: string) => fileURLToPath(new URL(`../client/${rel}`, import.meta.url));

export function makeAsset(body: Buffer | string, type: string, immutable = false): Asset {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  return {
    body: buf,
    gzip: gzipSync(buf, { level: 9 }),
    br: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    type,
    etag: `"${createHash('sha256').update(buf).digest('base64url').slice(0, 16)}"`,
    immutable,
  };
}

async function bundle(file: string, define: Record<string, string> = {}): Promise<Buffer> {
  const out = await build({
    entryPoints: [entry(file)],
    bundle: true,
    minify: true,
    format: file === 'sw.ts' ? 'iife' : 'esm',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    define,
  });
  return Buffer.from(out.outputFiles[0]!.contents);
}

export interface Bundles {
  /** URL path → asset, for every file the server serves from memory. */
  files: Map<string, Asset>;
  /** Each area's bundle URL. */
  script: Record<Area, string>;
}

export async function buildBundles(): Promise<Bundles> {
  const files = new Map<string, Asset>();
  const script = {} as Record<Area, string>;
  const built = await Promise.all(AREAS.map((a) => bundle(`${a}/main.ts`)));
  AREAS.forEach((area, i) => {
    const code = built[i]!;
    const hash = createHash('sha256').update(code).digest('hex').slice(0, 10);
    script[area] = `/assets/${area}.${hash}.js`;
    files.set(script[area], makeAsset(code, JS, true));
  });
  const precache = [script.field, '/icons/icon-192.png', '/icons/icon.svg'];
  const sw = await bundle('sw.ts', { __PRECACHE__: JSON.stringify(precache.map((url) => ({ url, revision: null }))) });
  // The worker's own URL stays fixed (browsers re-check it on each visit); its content carries the hashes.
  files.set('/sw.js', makeAsset(sw, JS));
  return { files, script };
}

/** The field app's icons in the tenant's colour (a PNG for install prompts, an SVG for everything else). */
export function iconAssets(primary: string): Map<string, Asset> {
  return new Map([
    ['/icons/icon.svg', makeAsset(iconSvg(primary), 'image/svg+xml')],
    ['/icons/icon-192.png', makeAsset(iconPng(primary, 192), 'image/png')],
    ['/icons/icon-512.png', makeAsset(iconPng(primary, 512), 'image/png')],
  ]);
}

/** Picks the best encoding the client accepts. */
export function pickEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const a = accept ?? '';
  if (/\bbr\b/.test(a)) return 'br';
  if (/\bgzip\b/.test(a)) return 'gzip';
  return null;
}
