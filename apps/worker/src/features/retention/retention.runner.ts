/** Prunes every `intervalMs` (first pass shortly after start), one pass at a time; stop() waits for it. */
import type { RetentionService } from './retention.service.js';

interface Logger {
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export class RetentionRunner {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private running = false;

  constructor(
    private readonly retention: RetentionService,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(firstAfterMs = 5_000): void {
    this.running = true;
    this.schedule(Math.min(firstAfterMs, this.intervalMs));
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.pass?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.pass = this.retention
        .prune()
        .then((pruned) => {
          const any = Object.values(pruned).some((n) => n > 0);
          (any ? this.logger.info : this.logger.debug).call(this.logger, { pruned }, 'pruned expired bookkeeping rows');
        })
        .catch((err: unknown) => this.logger.warn({ err }, 'pruning failed; will try again'))
        .finally(() => {
          this.pass = undefined;
          if (this.running) this.schedule(this.intervalMs);
        });
    }, ms);
    this.timer.unref();
  }
}
