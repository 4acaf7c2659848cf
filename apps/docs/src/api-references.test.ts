/**
 * docs/docs-site.md names every API reference the site renders, so a reader of the docs (or of the
 * README's service table, which points there) knows each one is there.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { expect, it } from 'vitest';

import { API_REFERENCES } from './api-references.js';

const doc = readFileSync(fileURLToPath(new URL('../../../docs/docs-site.md', import.meta.url)), 'utf8');

it('docs/docs-site.md lists the page of every API reference', () => {
  expect(API_REFERENCES.map((r) => r.slug)).toEqual(['erp-rest', 'public', 'control-plane']);
  for (const r of API_REFERENCES) expect(doc).toContain(`/api/${r.slug}.html`);
});
