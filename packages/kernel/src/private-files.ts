/**
 * Owner-only files: everything under DATA_DIR (databases, customers' photos and signatures, keys) and
 * the local backups is created 0700 (directories) / 0600 (files) whatever the umask, and an older,
 * looser install is tightened at start. PostgreSQL itself refuses a data directory looser than 0750.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** New files and directories of this process: no group or other bits, whatever umask it was started with. */
export function usePrivateUmask(): void {
  process.umask(0o077);
}

/**
 * Sets every directory under `root` (itself included) to 0700 and every regular file to 0600; symlinks,
 * sockets and pipes are left alone. Returns how many entries it changed (0 when `root` does not exist).
 */
export function tightenTree(root: string): number {
  let changed = 0;
  const visit = (path: string): void => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // gone meanwhile (a temporary file), or never there
    }
    const want = st.isDirectory() ? PRIVATE_DIR_MODE : st.isFile() ? PRIVATE_FILE_MODE : undefined;
    if (want === undefined) return;
    if ((st.mode & 0o777) !== want) {
      try {
        chmodSync(path, want);
        changed++;
      } catch {
        return; // not ours to change (another owner): left as it is
      }
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return changed;
}
