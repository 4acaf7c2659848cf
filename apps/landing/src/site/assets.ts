/**
 * Builds the client bundle with esbuild when the server starts (so `npm start` works straight after
 * `npm ci`), minifies the stylesheet for inlining, and keeps both, plus public/, in memory with
 * pre-compressed variants.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import { build, transform } from 'esbuild';
import type { FastifyReply, FastifyRequest } from 'fastify';

const CLIENT_ENTRY = fileURLToPath(new URL('../client/main.ts', import.meta.url));
const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

export interface Asset {
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
};

export function makeAsset(body: Buffer | string, type: string): Asset {
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  return {
    body: buf,
    gzip: gzipSync(buf, { level: 9 }),
    br: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    type,
    etag: `"${createHash('sha256').update(buf).digest('base64url').slice(0, 16)}"`,
  };
}

export async function buildClientBundle(): Promise<{ path: string; asset: Asset }> {
  const out = await build({
    entryPoints: [CLIENT_ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 10);
  return { path: `/assets/site.${hash}.js`, asset: makeAsset(Buffer.from(code), TYPES['.js']!) };
}

export async function buildCss(): Promise<string> {
  const src = readFileSync(join(PUBLIC_DIR, 'site.css'), 'utf8');
  const out = await transform(src, { loader: 'css', minify: true, logLevel: 'silent' });
  return out.code.trim();
}

/** public/ as URL path -> asset (site.css is inlined into pages instead). */
export function loadPublic(): Map<string, Asset> {
  const files = new Map<string, Asset>();
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
      else if (name !== 'site.css') {
        const ext = name.slice(name.lastIndexOf('.'));
        files.set(`${prefix}${name}`, makeAsset(readFileSync(full), TYPES[ext] ?? 'application/octet-stream'));
      }
    }
  };
  walk(PUBLIC_DIR, '/');
  return files;
}

/** Picks the best encoding the client accepts. */
export function pickEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  const a = accept ?? '';
  if (/\bbr\b/.test(a)) return 'br';
  if (/\bgzip\b/.test(a)) return 'gzip';
  return null;
}

/** Sends a prepared asset with its validator and best encoding (also used by bench/site for baselines). */
export function sendAsset(req: FastifyRequest, reply: FastifyReply, a: Asset, cache: string): FastifyReply {
  reply
    .header('content-type', a.type)
    .header('cache-control', cache)
    .header('etag', a.etag)
    .header('vary', 'accept-encoding');
  if (req.headers['if-none-match'] === a.etag) return reply.code(304).send();
  const enc = pickEncoding(req.headers['accept-encoding']);
  if (enc) reply.header('content-encoding', enc);
  return reply.send(enc === 'br' ? a.br : enc === 'gzip' ? a.gzip : a.body);
}
