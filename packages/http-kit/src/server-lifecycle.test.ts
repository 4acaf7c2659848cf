/**
 * Graceful close: a request that arrives over a kept-alive connection while the server shuts down
 * is served (with `Connection: close`), not reset and not answered 503; in-flight requests finish;
 * new connections are refused, which a proxy or client can always retry elsewhere.
 */
import { Agent, request } from 'node:http';

import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

import { GRACEFUL_FASTIFY_OPTIONS, listenAndTrack } from './server-lifecycle.js';

function get(url: string, agent?: Agent): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += String(c)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function slowAndFastApp() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const app = Fastify({ ...GRACEFUL_FASTIFY_OPTIONS, logger: false });
  app.get('/slow', async () => (await gate, { done: 'slow' }));
  app.get('/fast', async () => ({ done: 'fast' }));
  const running = await listenAndTrack(app, '127.0.0.1', 0, { drainMs: 2_000 });
  return { running, release };
}

describe('closing a server with kept-alive connections', () => {
  it('serves a request sent over a kept-alive connection during shutdown, and finishes the one in flight', async () => {
    const { running, release } = await slowAndFastApp();
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    // Two kept-alive connections, both idle now.
    await Promise.all([get(`${running.url}/fast`, agent), get(`${running.url}/fast`, agent)]);
    const slow = get(`${running.url}/slow`, agent);
    await new Promise((r) => setTimeout(r, 50));

    const closed = running.close();
    await new Promise((r) => setTimeout(r, 50));
    const during = await get(`${running.url}/fast`, agent); // the other, idle, kept-alive connection
    expect(during).toMatchObject({ status: 200, connection: 'close' });
    expect(JSON.parse(during.body)).toEqual({ done: 'fast' });

    await expect(get(`${running.url}/fast`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    release();
    expect(await slow).toMatchObject({ status: 200, body: '{"done":"slow"}' });
    await closed;
    agent.destroy();
  });

  it('does not wait for connections that have been quiet longer than the drain window', async () => {
    const app = Fastify({ ...GRACEFUL_FASTIFY_OPTIONS, logger: false });
    app.get('/fast', async () => ({ done: 'fast' }));
    const running = await listenAndTrack(app, '127.0.0.1', 0, { drainMs: 1_000 });
    const agent = new Agent({ keepAlive: true });
    await get(`${running.url}/fast`, agent);
    await new Promise((r) => setTimeout(r, 1_100));
    let closedYet = false;
    const closed = running.close().then(() => (closedYet = true));
    // Well inside the 1 s window: closing did not sit out the window for a connection already quiet.
    await Promise.race([closed, new Promise((r) => setTimeout(r, 600))]);
    expect(closedYet).toBe(true);
    agent.destroy();
  });
});
