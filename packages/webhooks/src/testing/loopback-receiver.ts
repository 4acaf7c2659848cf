/**
 * A webhook receiver for tests: an HTTP server on a free loopback port that keeps every request's
 * headers and raw body (what a signature covers) and answers the status the test sets.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The status this request was answered with. */
  answered: number;
}

export interface LoopbackReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** What the next requests are answered (200 until changed). */
  answer: number;
  close(): Promise<void>;
}

const flat = (h: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));

export async function startLoopbackReceiver(path = '/hooks'): Promise<LoopbackReceiver> {
  const receiver: LoopbackReceiver = {
    url: '',
    received: [],
    answer: 200,
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answered = receiver.answer;
      receiver.received.push({ headers: flat(req.headers), body: Buffer.concat(chunks).toString('utf8'), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
