/**
 * postText tells its callers' failures apart as they map them: no answer in time (timeout), no
 * answer at all (network), an answer that broke off (read); an answer of any status is an answer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpPostError, postText } from './http-post.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/echo') {
        res.writeHead(req.headers['content-type'] === 'application/json' ? 201 : 415);
        res.end(`${req.headers['content-length']}:${body}`);
      } else if (req.url === '/slow') setTimeout(() => res.end('late'), 500);
      else if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('partial');
        setTimeout(() => res.socket?.destroy(), 20);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const kindOf = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (e: unknown) => (e instanceof HttpPostError ? e.kind : String(e)),
  );

describe('postText', () => {
  it('sends the body with its type and length, and answers the status and text whatever the status', async () => {
    const body = JSON.stringify({ é: 'ü' });
    expect(await postText(`${base}/echo`, body, { contentType: 'application/json', timeoutMs: 2000 })).toEqual({
      status: 201,
      text: `${Buffer.byteLength(body)}:${body}`,
    });
    expect(
      (await postText(new URL(`${base}/echo`), 'a=1', { contentType: 'text/plain', timeoutMs: 2000 })).status,
    ).toBe(415);
  });

  it('is a timeout when no full answer comes in time, network when nothing answers, read when the answer breaks off', async () => {
    const o = { contentType: 'application/json', timeoutMs: 100 };
    expect(await kindOf(postText(`${base}/slow`, '{}', o))).toBe('timeout');
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await kindOf(postText(`http://127.0.0.1:${port}/`, '{}', o))).toBe('network');
    expect(await kindOf(postText(`${base}/cut`, '{}', { ...o, timeoutMs: 2000 }))).toBe('read');
  });
});

describe('postText keep-alive', () => {
  it('reuses a socket between calls, and drops one idle for 4 s before a Node server would close it', async () => {
    const sockets = new Set<object>();
    const server2 = createServer((req, res) => {
      sockets.add(req.socket);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server2.keepAliveTimeout = 30_000; // longer than the client's: the client must close first
    await new Promise<void>((r) => server2.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server2.address() as AddressInfo).port}/`;
    const post = () => postText(url, 'x', { contentType: 'text/plain', timeoutMs: 2000 });
    try {
      await post();
      await post();
      expect(sockets.size).toBe(1);
      await new Promise((r) => setTimeout(r, 4_300));
      await post();
      expect(sockets.size).toBe(2);
    } finally {
      server2.closeAllConnections();
      await new Promise<void>((r) => server2.close(() => r()));
    }
  }, 10_000);
});
