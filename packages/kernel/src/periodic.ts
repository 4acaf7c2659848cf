/**
 * A pass that runs every `everyMs`, one at a time (the next is scheduled when the last ends, so a
 * slow pass never overlaps itself), whose failure is reported and retried next time; stop() waits
 * for the pass in hand. Every periodic job of the worker
 * (change feed, retention, ERP recovery, reconciliation, certificates, DNS checks) runs on it.
 */
export interface PeriodicOptions {
  everyMs: number;
  /** Delay before the first pass (default `everyMs`; 0: at once). */
  firstAfterMs?: number;
  pass: () => Promise<unknown>;
  /** A pass that threw; the next one still runs. */
  onError: (err: unknown) => void;
  /** Keep the process alive while scheduled (default: no, the timer is unref'd). */
  keepAlive?: boolean;
}

export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private inHand: Promise<unknown> | undefined;
  private running = false;

  constructor(private readonly o: PeriodicOptions) {}

  start(firstAfterMs = this.o.firstAfterMs ?? this.o.everyMs): void {
    this.running = true;
    this.schedule(Math.min(firstAfterMs, this.o.everyMs));
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.inHand?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.inHand = this.o
        .pass()
        .catch((err: unknown) => this.o.onError(err))
        .finally(() => {
          this.inHand = undefined;
          if (this.running) this.schedule(this.o.everyMs);
        });
    }, ms);
    if (!this.o.keepAlive) this.timer.unref();
  }
}
