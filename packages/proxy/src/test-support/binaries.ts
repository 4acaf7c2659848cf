/**
 * Tests that need Debian's nginx or pebble: skipped with a message when the program is absent on a
 * developer's machine, but never in CI (CI=true), where its absence fails the run (.ci/run installs them).
 */
import { execFileSync } from 'node:child_process';

export function findBinary(name: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The program's path, or undefined (after a console note) when the suite should skip. */
export function requireBinary(name: string, aptPackage = name): string | undefined {
  const path = findBinary(name);
  if (path) return path;
  if (process.env.CI === 'true')
    throw new Error(
      `${name} is not installed: CI must run these tests (apt-get install -y ${aptPackage}; .ci/run does)`,
    );
  console.warn(
    `SKIPPED: ${name} is not installed (apt-get install -y ${aptPackage}); these tests need the real ${name}`,
  );
  return undefined;
}
