import { join } from 'node:path';

import type { Db } from './db.js';
import { createPgDb } from './pg.client.js';
import { createPgliteDb } from './pglite.client.js';

export interface OpenDbOptions {
  /** PostgreSQL URL; when absent the embedded PGlite engine is used. */
  databaseUrl?: string | undefined;
  /** Directory of the PGlite data (`<dataDir>/<name>`). */
  dataDir: string;
  /** Sub-directory name for PGlite, so the platform and the embedded ERP keep separate files. */
  name: string;
  poolSize?: number;
  /**
   * PGlite only: a service (server, worker) must own the files; when another live process owns
   * them it fails with a clear message instead of using that process's served database (CLIs do).
   */
  owner?: boolean;
}

export async function openDb(opts: OpenDbOptions): Promise<Db> {
  if (opts.databaseUrl) return createPgDb({ url: opts.databaseUrl, max: opts.poolSize ?? 10 });
  return createPgliteDb({ dataDir: join(opts.dataDir, opts.name), ...(opts.owner ? { owner: true } : {}) });
}
