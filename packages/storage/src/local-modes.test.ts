/** Stored objects (customers' photos and signatures) are owner-only files in owner-only directories, whatever the umask. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, expect, it } from 'vitest';

import { createLocalObjectStore } from './local.driver.js';

const root = mkdtempSync(join(tmpdir(), 'objects-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('writes objects 0600 under 0700 directories even with umask 000', async () => {
  const before = process.umask(0);
  try {
    await createLocalObjectStore({ root: join(root, 'objects') }).put('acme/photos/job-1.jpg', Buffer.from('jpeg'));
  } finally {
    process.umask(before);
  }
  const mode = (p: string) => statSync(p).mode & 0o777;
  expect(mode(join(root, 'objects', 'acme', 'photos', 'job-1.jpg'))).toBe(0o600);
  expect(
    [join(root, 'objects'), join(root, 'objects', 'acme'), join(root, 'objects', 'acme', 'photos')].map(mode),
  ).toEqual([0o700, 0o700, 0o700]);
});
