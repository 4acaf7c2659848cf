/** Used by run-service.test.ts: a service whose close never finishes, with a 300 ms shutdown deadline. */
import { runService } from './run-service.js';

await runService('stuck', async () => {
  setInterval(() => {}, 1_000); // stands for a listening server
  process.stdout.write('ready\n');
  return { close: () => new Promise<void>(() => {}), shutdownDeadlineMs: 300 };
});
