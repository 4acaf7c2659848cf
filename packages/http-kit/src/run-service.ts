/**
 * The shared `main` of every service process: `--help` prints where its settings come from; a
 * ConfigError is printed without a stack and exits 1; SIGINT/SIGTERM close the service once
 * (in-flight work finishes) and exit 0, or exit 1 when closing outlasts the service's shutdown
 * deadline (a hung connection or ERP call must not keep a stopped process alive). Files it creates are
 * owner-only (umask 077).
 */
import { ConfigError, usePrivateUmask, wantsHelp } from '@platform/kernel';

export interface RunningService {
  close(): Promise<void>;
  /** Longest a graceful shutdown may take before the process exits anyway (default 30 s). */
  shutdownDeadlineMs?: number;
}

export async function runService(name: string, start: () => Promise<RunningService>): Promise<void> {
  if (wantsHelp(process.argv.slice(2))) {
    process.stdout.write(
      `${name}: takes no arguments; configured by environment variables (README, "Environment variables")\n`,
    );
    process.exit(0);
  }
  // Everything a service writes (DATA_DIR: databases, objects, keys) is owner-only, whatever umask it got.
  usePrivateUmask();
  let service: RunningService;
  try {
    service = await start();
  } catch (e) {
    // A bad setting, or data another process owns (packages/db DATA_DIR_BUSY): a message, no stack.
    if (e instanceof ConfigError || (e as { code?: unknown } | null)?.code === 'DATA_DIR_BUSY') {
      process.stderr.write(`${name}: ${(e as Error).message}\n`);
      process.exit(1);
    }
    throw e;
  }
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${name}: ${signal} received, shutting down\n`);
    const deadline = service.shutdownDeadlineMs ?? 30_000;
    setTimeout(() => {
      process.stderr.write(`${name}: shutdown took longer than ${deadline} ms; exiting anyway\n`);
      process.exit(1);
    }, deadline).unref();
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`${name}: error while shutting down: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
