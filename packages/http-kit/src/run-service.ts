/**
 * The shared `main` of every service process: a ConfigError is printed without a stack and exits 1;
 * SIGINT/SIGTERM close the service once (in-flight work finishes) and exit 0.
 */
import { ConfigError } from '@platform/kernel';

export async function runService(name: string, start: () => Promise<{ close(): Promise<void> }>): Promise<void> {
  let service: { close(): Promise<void> };
  try {
    service = await start();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${name}: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${name}: ${signal} received, shutting down\n`);
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
