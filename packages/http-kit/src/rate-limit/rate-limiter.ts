/**
 * "N requests per window per client": a fixed window counted in PostgreSQL (shared by replicas).
 * Over the limit: RATE_LIMITED with retry_after = seconds until the window ends (sent as Retry-After).
 */
import type { Db } from '@platform/db';
import { AppError, systemClock, type Clock } from '@platform/kernel';
import { hit, pruneBefore } from './rate-limit.repo.js';

export interface Limit {
  name: string;
  max: number;
  windowSeconds: number;
}

export class RateLimiter {
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {}

  async consume(limit: Limit, client: string): Promise<void> {
    const now = this.clock.now().getTime();
    const windowMs = limit.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const hits = await hit(this.db, `${limit.name}:${client}`, new Date(start));
    if (now - this.lastPrune > 10 * 60_000) {
      this.lastPrune = now;
      await pruneBefore(this.db, new Date(now - 3_600_000)).catch(() => undefined);
    }
    if (hits > limit.max) {
      const retryAfter = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
      throw new AppError('RATE_LIMITED', `At most ${limit.max} requests per ${limit.windowSeconds} s; try again in ${retryAfter} s.`, {
        details: { retry_after: retryAfter },
      });
    }
  }
}
