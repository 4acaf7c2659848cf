/**
 * Loads the site's pages from apps/landing/content (JSON and markdown), validates them once at
 * start-up, and renders markdown to HTML. A marketer edits content/, never this file.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { z } from 'zod';
import { marked } from 'marked';

const CONTENT_DIR = new URL('../../content/', import.meta.url);
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

const Product = z.object({
  slug, name: z.string(), short: z.string(), intro: z.string(),
  features: z.array(z.string()).min(1), priceFrom: z.string(), art: z.string(),
});
const Location = z.object({ slug, city: z.string(), areas: z.array(z.string()), note: z.string() });
const LpV2 = z.object({
  slug, title: z.string(), lead: z.string(), offer: z.string(), points: z.array(z.string()), product: slug,
});
const LpLegacy = z.object({ slug, title: z.string(), lead: z.string() });
const Site = z.object({
  tagline: z.string(), phone: z.string(), phoneHref: z.string(), email: z.string(), address: z.string(),
  hours: z.string(),
  home: z.object({
    title: z.string(), lead: z.string(), cta: z.string(),
    steps: z.array(z.object({ title: z.string(), text: z.string() })),
    promises: z.array(z.string()),
  }),
  about: z.object({ title: z.string(), lead: z.string() }),
  helpdesk: z.object({ title: z.string(), lead: z.string(), subjects: z.array(z.string()) }),
  gallery: z.object({
    title: z.string(), lead: z.string(),
    items: z.array(z.object({ title: z.string(), product: slug, text: z.string() })),
  }),
  faq: z.array(z.object({ q: z.string(), a: z.string() })),
});
const PopupPages = z.object({
  pages: z.array(z.object({ path: z.string().startsWith('/'), template: z.string().regex(/^[a-z0-9-]+_popup$/) })),
});

export type Product = z.infer<typeof Product>;
export type Location = z.infer<typeof Location>;
export type LpV2 = z.infer<typeof LpV2>;
export type LpLegacy = z.infer<typeof LpLegacy>;
export type SiteCopy = z.infer<typeof Site>;
export interface BlogPost { slug: string; title: string; date: string; summary: string; html: string }

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
}

const readText = (rel: string): string => readFileSync(new URL(rel, CONTENT_DIR), 'utf8');
const readJson = (rel: string): unknown => JSON.parse(readText(rel));

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

function loadPosts(): BlogPost[] {
  const files = readdirSync(new URL('blog/', CONTENT_DIR)).filter((f) => f.endsWith('.md'));
  const posts = files.map((f) => {
    const { meta, body } = parseMarkdownPage(readText(`blog/${f}`));
    const post = z.object({ title: z.string(), date: z.string(), summary: z.string() }).parse(meta);
    return { slug: slug.parse(f.slice(0, -3)), ...post, html: md(body) };
  });
  return posts.sort((a, b) => b.date.localeCompare(a.date));
}

export function loadContent(): SiteContent {
  const lps = z.object({ v2: z.array(LpV2), legacy: z.array(LpLegacy) }).parse(readJson('landing-pages.json'));
  const popup = PopupPages.parse(readJson('popup-pages.json'));
  return {
    site: Site.parse(readJson('site.json')),
    products: z.array(Product).parse(readJson('products.json')),
    locations: z.array(Location).parse(readJson('locations.json')),
    lpV2: lps.v2,
    lpLegacy: lps.legacy,
    posts: loadPosts(),
    aboutHtml: md(readText('pages/about.md')),
    popupPages: new Map(popup.pages.map((p) => [p.path, p.template])),
  };
}
