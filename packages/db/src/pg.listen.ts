/**
 * LISTEN on PostgreSQL through one dedicated client per listener: a pooled connection goes back to
 * the pool and forgets its LISTEN. A lost connection is re-opened with backoff; notices sent while it
 * was down are gone, so the listener is told `''` once it listens again and should assume anything
 * changed (a cache drops everything).
 */
import pg from 'pg';

import { quoteIdent } from './migrate.js';

const MAX_BACKOFF_MS = 10_000;

export async function pgListen(
  config: pg.ClientConfig,
  channel: string,
  fn: (payload: string) => void,
): Promise<() => Promise<void>> {
  const ident = quoteIdent(channel);
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoff = 250;

  const connect = async (): Promise<void> => {
    const c = new pg.Client(config);
    c.on('notification', (n) => {
      if (n.channel === channel) fn(n.payload ?? '');
    });
    // 'error' and 'end' both mean the LISTEN is gone: open a new connection unless stopping.
    const lost = () => {
      if (client !== c || stopped) return;
      client = undefined;
      retry = setTimeout(() => void reconnect(), backoff);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    };
    c.on('error', lost);
    c.on('end', lost);
    try {
      await c.connect();
      await c.query(`LISTEN ${ident}`);
    } catch (e) {
      await c.end().catch(() => {});
      throw e;
    }
    client = c;
  };
  const reconnect = async () => {
    if (stopped) return;
    try {
      await connect();
      backoff = 250;
      fn('');
    } catch {
      if (stopped) return;
      retry = setTimeout(() => void reconnect(), backoff);
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}
