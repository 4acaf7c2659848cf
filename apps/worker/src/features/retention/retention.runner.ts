/** Prunes every `intervalMs` (first pass shortly after start), one pass at a time; stop() waits for it. */
import { Periodic } from '@platform/kernel';

import type { RetentionService } from './retention.service.js';

interface Logger {
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export class RetentionRunner extends Periodic {
  constructor(retention: RetentionService, intervalMs: number, logger: Logger) {
    super({
      everyMs: intervalMs,
      firstAfterMs: 5_000,
      pass: async () => {
        const pruned = await retention.prune();
        const any = Object.values(pruned).some((n) => n > 0);
        (any ? logger.info : logger.debug).call(logger, { pruned }, 'pruned expired bookkeeping rows');
      },
      onError: (err) => logger.warn({ err }, 'pruning failed; will try again'),
    });
  }
}
