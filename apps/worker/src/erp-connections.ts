/**
 * One `Erp` adapter per ERP database (one per tenant). The secret is ERP_API_KEY, or in embedded
 * mode the key the embedded ERP keeps in DATA_DIR/erp-platform-api-key, re-read when it changes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createOdooErp, type Erp, type ErpCallObserver } from '@platform/erp';
import { AppError } from '@platform/kernel';

import type { WorkerConfig } from './config.js';

export class ErpConnections {
  private readonly cache = new Map<string, { secret: string; erp: Erp }>();

  constructor(
    private readonly config: Pick<
      WorkerConfig,
      'ERP_URL' | 'ERP_DB' | 'ERP_LOGIN' | 'ERP_API_KEY' | 'ERP_TIMEOUT_MS' | 'DATA_DIR'
    >,
    /** The metrics hook of each database's client (latency and errors per tenant). */
    private readonly observerFor?: (erpDb: string) => ErpCallObserver,
  ) {}

  forDatabase(db: string | null): Erp {
    const name = db ?? this.config.ERP_DB;
    const secret = this.secret();
    const hit = this.cache.get(name);
    if (hit && hit.secret === secret) return hit.erp;
    const erp = createOdooErp({
      url: this.config.ERP_URL,
      db: name,
      login: this.config.ERP_LOGIN,
      secret,
      timeoutMs: this.config.ERP_TIMEOUT_MS,
      ...(this.observerFor ? { onCall: this.observerFor(name) } : {}),
    });
    this.cache.set(name, { secret, erp });
    return erp;
  }

  private secret(): string {
    if (this.config.ERP_API_KEY) return this.config.ERP_API_KEY;
    const file = join(this.config.DATA_DIR, 'erp-platform-api-key');
    const key = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    // Not there yet: the embedded ERP writes it on its first start. Retry later.
    if (!key)
      throw new AppError(
        'ERP_UNAVAILABLE',
        `No ERP_API_KEY and no ${file} yet (the embedded ERP writes it on first start).`,
      );
    return key;
  }
}
