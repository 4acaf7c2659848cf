/**
 * DATA_DIR holds the databases, customers' photos and signatures and every generated key: owner-only.
 * `npm start` tightens an existing install before opening it (one log line says how many entries it
 * changed) and again once everything started (PGlite writes its first files with its own modes, 0666
 * and 0644). A DATA_DIR that is a project's directory (a `.git` or `package.json` in it) is left alone.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { tightenTree } from '@platform/kernel';

export type TightenOutcome = { tightened: number } | { skipped: string };

export function tightenDataDir(dataDir: string): TightenOutcome {
  const foreign = ['.git', 'package.json'].find((name) => existsSync(join(dataDir, name)));
  if (foreign) return { skipped: `DATA_DIR ${dataDir} holds ${foreign}; its modes are left as they are` };
  return { tightened: tightenTree(dataDir) };
}

/** The log line of a start's first pass, or undefined when there was nothing to say. */
export function tightenedMessage(dataDir: string, o: TightenOutcome): string | undefined {
  if ('skipped' in o) return o.skipped;
  if (o.tightened === 0) return undefined;
  return `DATA_DIR ${dataDir}: tightened ${o.tightened} ${o.tightened === 1 ? 'entry' : 'entries'} to owner-only (directories 0700, files 0600)`;
}
