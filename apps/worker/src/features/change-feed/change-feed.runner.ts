/** Runs the change feed every `intervalMs`, one pass at a time; stop() waits for the pass in hand. */
import type { ChangeFeedService } from './change-feed.service.js';

export class ChangeFeedRunner {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private running = false;

  constructor(
    private readonly feed: ChangeFeedService,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.pass?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.pass = this.feed
        .pollAll()
        .catch(() => 0)
        .finally(() => {
          this.pass = undefined;
          if (this.running) this.schedule(this.intervalMs);
        });
    }, ms);
  }
}
