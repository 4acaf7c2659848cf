/**
 * The VitePress configuration of the docs site: the repository's docs/ folder as pages, a sidebar of
 * every page (new docs appear without editing this), local search, and dead internal links failing
 * the build. The API reference pages are written next to the built site by docs.build.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { UserConfig } from 'vitepress';

import { API_REFERENCES } from './api-references.js';

function pages(srcDir: string): { text: string; link: string }[] {
  return readdirSync(srcDir)
    .filter((f) => f.endsWith('.md') && f !== 'index.md')
    .sort()
    .map((f) => {
      const heading = /^#\s+(.+)$/m.exec(readFileSync(join(srcDir, f), 'utf8'))?.[1] ?? f;
      return { text: heading.replace(/`/g, ''), link: `/${f.replace(/\.md$/, '')}` };
    });
}

export function siteConfig(srcDir: string): UserConfig {
  return {
    title: 'Platform docs',
    description: 'Operator and developer documentation of the window-covering business platform',
    srcDir,
    cleanUrls: false,
    // Internal: never indexed (the site is also behind sign-in).
    head: [['meta', { name: 'robots', content: 'noindex' }]],
    // Links into /api/ point at pages written after the VitePress build; every other dead link fails it.
    ignoreDeadLinks: [/^\/api\//],
    themeConfig: {
      search: { provider: 'local' },
      nav: [
        {
          text: 'API references',
          items: API_REFERENCES.map((r) => ({ text: r.title, link: `/api/${r.slug}.html`, target: '_self' })),
        },
      ],
      sidebar: [
        { text: 'Documentation', items: pages(srcDir) },
        {
          text: 'API references',
          items: API_REFERENCES.map((r) => ({ text: r.title, link: `/api/${r.slug}.html`, target: '_self' })),
        },
      ],
    },
  };
}
