/** Runs the change feed every `intervalMs` (the first pass at once), one pass at a time; stop() waits for the pass in hand. */
import { Periodic } from '@platform/kernel';

import type { ChangeFeedService } from './change-feed.service.js';

export class ChangeFeedRunner extends Periodic {
  constructor(feed: ChangeFeedService, intervalMs: number) {
    // A failed pass is the service's to report (per tenant, with its cursor); the next pass retries.
    super({ everyMs: intervalMs, firstAfterMs: 0, pass: () => feed.pollAll(), onError: () => {}, keepAlive: true });
  }
}
