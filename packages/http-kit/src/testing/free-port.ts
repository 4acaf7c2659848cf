/**
 * A loopback port for a test to hand to a server it starts later (a child process, a proxy config).
 *
 * Why not `listen(0)` and release: the OS hands out ports from the ephemeral range
 * (32768-60999 on Linux), the same range every outgoing connection's source port comes from, so on a
 * busy machine a just-released ephemeral port is soon taken by someone's fetch or database socket and
 * the server started later fails with EADDRINUSE. Ports are drawn instead at random from below that
 * range, where only listeners live, and probed before they are returned.
 */
import { createServer } from 'node:net';

const LOW = 20_000;
const HIGH = 32_000;

function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await probe(port)) return port;
  }
  throw new Error(`no free loopback port found between ${LOW} and ${HIGH}`);
}
