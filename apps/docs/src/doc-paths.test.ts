/**
 * Every repository path the docs name in code spans (`apps/…`, `packages/…`, `bench/…`, `deploy/…`)
 * exists, so a reader following a doc to a test or a module finds it (a moved test left two stale).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Build outputs (gitignored: absent from a fresh checkout until built). */
const BUILT = /(^|\/)dist(\/|$)/;

it('names only paths that exist', () => {
  const missing: string[] = [];
  for (const file of files)
    for (const [, path] of readFileSync(join(root, file), 'utf8').matchAll(
      /`((?:apps|packages|bench|deploy)\/[A-Za-z0-9_./-]+)`/g,
    ))
      if (!BUILT.test(path!) && !existsSync(join(root, path!))) missing.push(`${file}: ${path}`);
  expect(missing).toEqual([]);
});
