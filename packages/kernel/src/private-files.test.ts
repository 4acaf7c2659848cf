/** Owner-only trees: a loose tree is tightened (directories 0700, files 0600), links are left alone, and a second pass changes nothing. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { tightenTree } from './private-files.js';

const root = mkdtempSync(join(tmpdir(), 'private-files-'));
const outside = mkdtempSync(join(tmpdir(), 'private-files-outside-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
const mode = (p: string) => statSync(p).mode & 0o777;

describe('tightenTree', () => {
  it('makes every directory 0700 and every file 0600, counting what it changed', () => {
    mkdirSync(join(root, 'platform', 'base'), { recursive: true });
    writeFileSync(join(root, 'platform', 'base', 'rel'), 'x');
    writeFileSync(join(root, 'key'), 'k');
    writeFileSync(join(root, 'already'), 'a', { mode: 0o600 });
    chmodSync(join(root, 'already'), 0o600);
    writeFileSync(join(outside, 'theirs'), 't');
    chmodSync(join(outside, 'theirs'), 0o644);
    symlinkSync(join(outside, 'theirs'), join(root, 'link'));
    for (const p of [root, join(root, 'platform'), join(root, 'platform', 'base')]) chmodSync(p, 0o777);
    for (const p of [join(root, 'platform', 'base', 'rel'), join(root, 'key')]) chmodSync(p, 0o666);

    expect(tightenTree(root)).toBe(5);
    expect([root, join(root, 'platform'), join(root, 'platform', 'base')].map(mode)).toEqual([0o700, 0o700, 0o700]);
    expect([join(root, 'platform', 'base', 'rel'), join(root, 'key'), join(root, 'already')].map(mode)).toEqual([
      0o600, 0o600, 0o600,
    ]);
    expect(mode(join(outside, 'theirs'))).toBe(0o644); // a link is not followed
    expect(tightenTree(root)).toBe(0);
  });

  it('counts nothing for a directory that does not exist', () => {
    expect(tightenTree(join(root, 'nope'))).toBe(0);
  });
});
