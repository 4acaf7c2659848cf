/**
 * Primary provider with failover: a message the primary cannot take (5xx, timeout, network, an
 * account-level refusal, a rate limit) goes out through the secondary. A circuit breaker (opossum)
 * around the primary stops calling it once it keeps failing and, after `resetMs`, lets one probe
 * through (half-open); a success closes it. Failures that are the message's own fault (rejected,
 * inactive recipient) neither count against the primary nor fail over.
 */
import { type EmailMessage, type EmailSender, EmailSendError, type EmailSendResult } from '@platform/providers';
import CircuitBreaker from 'opossum';

export interface FailoverOptions {
  /** Requests in the rolling window before the breaker may open (and half of them failed). */
  failures: number;
  resetMs: number;
  logger?: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface FailoverResult extends EmailSendResult {
  /** Set when the secondary sent the message because the primary could not. */
  failedOverFrom?: string;
  primaryError?: string;
}

const FAILS_OVER = new Set(['unavailable', 'account', 'rate_limited']);

export class FailoverSender {
  private readonly breaker: CircuitBreaker<[EmailMessage], EmailSendResult> | undefined;

  constructor(
    readonly primary: EmailSender,
    readonly secondary: EmailSender | undefined,
    o: FailoverOptions,
  ) {
    if (secondary) {
      this.breaker = new CircuitBreaker((m: EmailMessage) => primary.send(m), {
        timeout: false, // the adapters time out themselves
        volumeThreshold: o.failures,
        errorThresholdPercentage: 50,
        resetTimeout: o.resetMs,
        rollingCountTimeout: Math.max(10_000, o.resetMs * 2),
        errorFilter: (e: unknown) => e instanceof EmailSendError && !FAILS_OVER.has(e.kind),
      });
      this.breaker.on('open', () =>
        o.logger?.warn({ provider: primary.name }, 'email primary circuit opened: sending through the secondary'),
      );
      this.breaker.on('halfOpen', () =>
        o.logger?.info({ provider: primary.name }, 'email primary circuit half-open: probing'),
      );
      this.breaker.on('close', () => o.logger?.info({ provider: primary.name }, 'email primary circuit closed'));
    }
  }

  get state(): BreakerState {
    if (!this.breaker) return 'closed';
    return this.breaker.opened ? 'open' : this.breaker.halfOpen ? 'half-open' : 'closed';
  }

  /** Transactional mail: primary first. */
  async send(m: EmailMessage): Promise<FailoverResult> {
    if (!this.breaker || !this.secondary) return this.primary.send(m);
    try {
      return await this.breaker.fire(m);
    } catch (e) {
      const open = CircuitBreaker.isOurError(e as Error);
      if (!open && !(e instanceof EmailSendError && FAILS_OVER.has(e.kind))) throw e;
      const why = open ? 'circuit open' : (e as Error).message;
      const r = await this.secondary.send(m);
      return { ...r, failedOverFrom: this.primary.name, primaryError: why };
    }
  }

  /** Bulk mail: the secondary is the bulk provider; without one, the primary's bulk stream. */
  async sendBulk(m: EmailMessage): Promise<FailoverResult> {
    return this.secondary ? this.secondary.send(m) : this.primary.send(m);
  }

  async close(): Promise<void> {
    this.breaker?.shutdown();
    await Promise.all([this.primary.close?.(), this.secondary?.close?.()]);
  }
}
