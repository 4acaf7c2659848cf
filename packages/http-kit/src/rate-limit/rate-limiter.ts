/**
 * "N requests per W seconds per client", meaning any W seconds (a sliding window over the accepted
 * requests), counted in the platform database so every replica shares one exact limit. Over the
 * limit: RATE_LIMITED with retry_after = seconds until the oldest counted request leaves the window
 * (sent as Retry-After). Refused requests are not counted. Idle buckets are pruned by the worker.
 */
import type { Db } from '@platform/db';
import { AppError, type Clock, systemClock } from '@platform/kernel';

import { oldestHitInWindow, tryHit } from './rate-limit.repo.js';

export interface Limit {
  name: string;
  max: number;
  windowSeconds: number;
}

export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async consume(limit: Limit, client: string): Promise<void> {
    const now = this.clock.now();
    const bucket = `${limit.name}:${client}`;
    if (await tryHit(this.db, bucket, now, limit.windowSeconds, limit.max)) return;
    const oldest = await oldestHitInWindow(this.db, bucket, now, limit.windowSeconds);
    const freesAt = (oldest?.getTime() ?? now.getTime()) + limit.windowSeconds * 1000;
    const retryAfter = Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000));
    throw new AppError(
      'RATE_LIMITED',
      `At most ${limit.max} requests per ${limit.windowSeconds} s; try again in ${retryAfter} s.`,
      {
        details: { retry_after: retryAfter },
      },
    );
  }
}
