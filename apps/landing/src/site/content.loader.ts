/**
 * Loads the site's pages from apps/landing/content (JSON and markdown), validates them once at
 * start-up, and renders markdown to HTML. A marketer edits content/, never this file. Any mistake
 * stops the start with a ContentError naming the file and the field (printed without a stack).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ConfigError } from '@platform/kernel';
import { marked } from 'marked';
import type { z } from 'zod';

import {
  landingPagesSchema,
  type Location,
  locationSchema,
  type LpLegacy,
  type LpV2,
  popupPagesSchema,
  postMetaSchema,
  type Product,
  productSchema,
  type SiteCopy,
  siteSchema,
  slug,
} from './content.schemas.js';

export type { Location, LpLegacy, LpV2, Product, SiteCopy } from './content.schemas.js';

export const CONTENT_DIR = fileURLToPath(new URL('../../content/', import.meta.url));
export const IMG_DIR = fileURLToPath(new URL('../../public/img/', import.meta.url));

export interface BlogPost {
  slug: string;
  title: string;
  date: string;
  summary: string;
  html: string;
}

export interface SiteContent {
  site: SiteCopy;
  products: Product[];
  locations: Location[];
  lpV2: LpV2[];
  lpLegacy: LpLegacy[];
  posts: BlogPost[];
  aboutHtml: string;
  /** path -> L2 popup template value */
  popupPages: Map<string, string>;
  /** False on a tenant's site without the helpdesk (the platform's own site always has it). */
  helpdeskEnabled?: boolean;
}

/** A content mistake: the server does not start, and the message says which file and field. */
export class ContentError extends ConfigError {
  constructor(file: string, problems: string[]) {
    super(`Invalid site content in content/${file}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ContentError';
  }
}

/** `[2].art` style paths, with the item's slug when it has one, so a marketer finds the entry. */
function where(data: unknown, path: PropertyKey[]): string {
  let label = '';
  let node: unknown = data;
  for (const key of path) {
    label += typeof key === 'number' ? `[${key}]` : `${label ? '.' : ''}${String(key)}`;
    node = (node as Record<PropertyKey, unknown> | undefined)?.[key];
    const s = (node as { slug?: unknown } | undefined)?.slug;
    if (typeof key === 'number' && typeof s === 'string') label += ` ("${s}")`;
  }
  return label || '(whole file)';
}

function check<S extends z.ZodType>(file: string, schema: S, data: unknown): z.infer<S> {
  const r = schema.safeParse(data, { reportInput: true });
  if (r.success) return r.data;
  throw new ContentError(
    file,
    r.error.issues.map((i) => {
      const missing = i.code === 'invalid_type' && i.input === undefined;
      return `${where(data, i.path)}: ${missing ? `is missing (expected ${i.expected})` : i.message}`;
    }),
  );
}

function read(dir: string, file: string): string {
  try {
    return readFileSync(join(dir, file), 'utf8');
  } catch (e) {
    throw new ContentError(file, [`cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`]);
  }
}

function readJson(dir: string, file: string): unknown {
  try {
    return JSON.parse(read(dir, file));
  } catch (e) {
    if (e instanceof ContentError) throw e;
    throw new ContentError(file, [`is not valid JSON: ${(e as Error).message}`]);
  }
}

/** Front matter is `key: value` lines between `---` fences; enough for a title, date and summary. */
export function parseMarkdownPage(src: string): { meta: Record<string, string>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(src);
  if (!m) return { meta: {}, body: src };
  const meta: Record<string, string> = {};
  for (const line of m[1]!.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) meta[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return { meta, body: src.slice(m[0].length) };
}

const md = (s: string): string => marked.parse(s, { async: false });

function loadPosts(dir: string): BlogPost[] {
  const files = readdirSync(join(dir, 'blog')).filter((f) => f.endsWith('.md'));
  const posts = files.map((f) => {
    const file = `blog/${f}`;
    const { meta, body } = parseMarkdownPage(read(dir, file));
    return { slug: check(file, slug, f.slice(0, -3)), ...check(file, postMetaSchema, meta), html: md(body) };
  });
  return posts.sort((a, b) => b.date.localeCompare(a.date));
}

function unique(file: string, list: { slug: string }[], what = ''): void {
  const seen = new Set<string>();
  for (const [i, x] of list.entries()) {
    if (seen.has(x.slug))
      throw new ContentError(file, [`${what}[${i}].slug: "${x.slug}" is used twice (each page needs its own slug)`]);
    seen.add(x.slug);
  }
}

/** Links between files: a gallery item or an LP v2 page must name a product that exists. */
function checkProductRefs(products: Product[], site: SiteCopy, lpV2: LpV2[]): void {
  const known = products.map((p) => p.slug);
  const bad = (file: string, field: string, value: string): never => {
    throw new ContentError(file, [`${field}: "${value}" is not a product slug in products.json (${known.join(', ')})`]);
  };
  site.gallery.items.forEach(
    (g, i) => known.includes(g.product) || bad('site.json', `gallery.items[${i}].product`, g.product),
  );
  lpV2.forEach(
    (lp, i) => known.includes(lp.product) || bad('landing-pages.json', `v2[${i}] ("${lp.slug}").product`, lp.product),
  );
}

export interface ContentSource {
  /** Directory holding site.json, products.json, ... (default: apps/landing/content). */
  dir?: string;
  /** The illustrations a product's `art` may name (default: apps/landing/public/img). */
  imgDir?: string;
}

export function loadContent(src: ContentSource = {}): SiteContent {
  const dir = src.dir ?? CONTENT_DIR;
  const arts = readdirSync(src.imgDir ?? IMG_DIR)
    .filter((f) => f.endsWith('.svg'))
    .map((f) => f.slice(0, -4))
    .sort();
  const site = check('site.json', siteSchema, readJson(dir, 'site.json'));
  const products = check('products.json', productSchema(arts).array(), readJson(dir, 'products.json'));
  const locations = check('locations.json', locationSchema.array(), readJson(dir, 'locations.json'));
  const lps = check('landing-pages.json', landingPagesSchema, readJson(dir, 'landing-pages.json'));
  const popup = check('popup-pages.json', popupPagesSchema, readJson(dir, 'popup-pages.json'));
  unique('products.json', products);
  unique('locations.json', locations);
  unique('landing-pages.json', lps.v2, 'v2');
  unique('landing-pages.json', lps.legacy, 'legacy');
  checkProductRefs(products, site, lps.v2);
  return {
    site,
    products,
    locations,
    lpV2: lps.v2,
    lpLegacy: lps.legacy,
    posts: loadPosts(dir),
    aboutHtml: md(read(dir, 'pages/about.md')),
    popupPages: new Map(popup.pages.map((p) => [p.path, p.template])),
  };
}
